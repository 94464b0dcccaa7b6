// A local double of GitHub's REST API on loopback: the endpoints Ringmaster uses, state kept in
// memory, every request recorded so tests assert the exact calls. Head shas are read from the
// bare repository that stands in for the remote, so pushes show up as they would on GitHub.
import { execFileSync } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export interface RecordedRequest { method: string; path: string; query: Record<string, string>; body: any; authorization?: string } // eslint-disable-line @typescript-eslint/no-explicit-any

interface Pull { number: number; title: string; body: string; head: string; base: string; state: "open" | "closed"; merged: boolean; mergedSha?: string; mergeMethod?: string }
interface Item { id: number; user: { login: string }; body: string; created_at: string; [k: string]: unknown }
interface Repo {
  pulls: Map<number, Pull>; comments: Map<number, Item[]>; reviewComments: Map<number, Item[]>; reviews: Map<number, Item[]>; checkRuns: Map<string, unknown[]>; statuses: Map<string, unknown[]>;
  /** login (lower case) → role name, as GitHub's collaborator permission endpoint reports it. */
  roles: Map<string, Role>;
  /** "issue:<n>", "comment:<id>", "review-comment:<id>" → reactions left there. */
  reactions: Map<string, { id: number; user: { login: string }; content: string; created_at: string }[]>;
}
export type Role = "admin" | "maintain" | "write" | "triage" | "read" | "none";
// The role's base permission, as the endpoint's `permission` field reports it.
const PERMISSION: Record<Role, string> = { admin: "admin", maintain: "write", write: "write", triage: "read", read: "read", none: "none" };
interface Failure { match: (r: RecordedRequest) => boolean; status: number; headers: Record<string, string>; body: unknown }

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export class GithubDouble {
  readonly requests: RecordedRequest[] = [];
  login = "ringmaster-bot";
  private server!: Server;
  private repos = new Map<string, Repo>();
  private failures: Failure[] = [];
  private nextId = 1000;
  private nextNumber = 1;
  url = "";

  /** remotesRoot/<owner>/<repo>.git are the bare repositories pushes go to. */
  constructor(readonly remotesRoot: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  /** The next `times` requests matching answer 403 with GitHub's primary rate-limit headers. */
  rateLimit(match: (r: RecordedRequest) => boolean, times = 1, resetInS = 1) {
    for (let i = 0; i < times; i++) {
      this.failures.push({
        match, status: 403,
        headers: { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + resetInS) },
        body: { message: "API rate limit exceeded for installation.", documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api" },
      });
    }
  }

  /** The next `times` requests matching answer 302 to `location` (a redirect must never carry the token away). */
  redirect(match: (r: RecordedRequest) => boolean, location: string, times = 1) {
    for (let i = 0; i < times; i++) this.failures.push({ match, status: 302, headers: { location }, body: {} });
  }

  calls(method: string, pathPrefix = "") {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix));
  }

  pull(fullName: string, number: number): Pull | undefined {
    return this.repo(fullName).pulls.get(number);
  }

  /** A PR as if opened earlier (benchmarks start from one). */
  openPull(fullName: string, p: { number: number; head: string; base: string; title?: string }) {
    this.repo(fullName).pulls.set(p.number, { title: p.title ?? `PR ${p.number}`, body: "", state: "open", merged: false, ...p });
    this.nextNumber = Math.max(this.nextNumber, p.number + 1);
  }

  addComment(fullName: string, number: number, login: string, body: string): Item {
    return this.push(this.repo(fullName).comments, number, { user: { login }, body });
  }

  addReview(fullName: string, number: number, login: string, body: string, state = "COMMENTED", inline: { path: string; line: number; body: string }[] = []): Item {
    const review = this.push(this.repo(fullName).reviews, number, { user: { login }, body, state, submitted_at: new Date().toISOString() });
    for (const c of inline) this.push(this.repo(fullName).reviewComments, number, { user: { login }, body: c.body, path: c.path, line: c.line, pull_request_review_id: review.id });
    return review;
  }

  /** What GitHub says of `login`'s access to the repository; someone never given a role is a 404, as for an unknown user. */
  setRole(fullName: string, login: string, role: Role) {
    this.repo(fullName).roles.set(login.toLowerCase(), role);
  }

  /** The reactions on an issue ("issue:<n>"), an issue comment ("comment:<id>") or a review comment ("review-comment:<id>"). */
  reactionsOn(fullName: string, key: string): string[] {
    return (this.repo(fullName).reactions.get(key) ?? []).map((r) => r.content);
  }

  /** The comments posted on issue or pull request `number` by Ringmaster (the double's own login). */
  ownComments(fullName: string, number: number): string[] {
    return (this.repo(fullName).comments.get(number) ?? []).filter((c) => c.user.login === this.login).map((c) => c.body);
  }

  setCheckRuns(fullName: string, sha: string, runs: { name: string; conclusion: string | null; status?: string; output?: { title?: string; summary?: string; text?: string } }[]) {
    this.repo(fullName).checkRuns.set(sha, runs.map((r) => ({ id: this.nextId++, head_sha: sha, status: r.status ?? "completed", details_url: `https://ci.example/${r.name}`, output: {}, ...r })));
  }

  headSha(fullName: string, branch: string): string {
    const [owner, name] = fullName.split("/");
    return execFileSync("git", ["rev-parse", `refs/heads/${branch}`], { cwd: join(this.remotesRoot, owner, `${name}.git`), stdio: ["ignore", "pipe", "pipe"] }).toString().trim();
  }

  // GET /repos/{owner}/{repo}/branches/{branch}, read from the bare repository like the head shas.
  private branchJson(fullName: string, branch: string): [number, Json] {
    const [owner, name] = fullName.split("/");
    try {
      const out = execFileSync("git", ["log", "-1", "--format=%H%x00%B", `refs/heads/${branch}`], { cwd: join(this.remotesRoot, owner, `${name}.git`), stdio: ["ignore", "pipe", "pipe"] }).toString();
      const [sha, message] = out.split("\0");
      return [200, { name: branch, commit: { sha, commit: { message: message.trim(), author: { name: "e2e" } } }, protected: false }];
    } catch {
      return [404, { message: "Branch not found", documentation_url: "https://docs.github.com/rest/branches/branches#get-a-branch" }];
    }
  }

  private push(map: Map<number, Item[]>, number: number, fields: Omit<Item, "id" | "created_at">): Item {
    const item = { id: this.nextId++, created_at: new Date().toISOString(), ...fields } as Item;
    map.set(number, [...(map.get(number) ?? []), item]);
    return item;
  }

  private repo(fullName: string): Repo {
    let repo = this.repos.get(fullName.toLowerCase());
    if (!repo) {
      repo = { pulls: new Map(), comments: new Map(), reviewComments: new Map(), reviews: new Map(), checkRuns: new Map(), statuses: new Map(), roles: new Map(), reactions: new Map() };
      this.repos.set(fullName.toLowerCase(), repo);
    }
    return repo;
  }

  // GET /repos/{owner}/{repo}/collaborators/{username}/permission
  private permissionJson(repo: Repo, login: string): [number, Json] {
    const role = repo.roles.get(login.toLowerCase());
    if (!role) return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user", status: "404" }];
    return [200, { permission: PERMISSION[role], role_name: role, user: { login, id: 7, type: "User", permissions: { admin: role === "admin", maintain: ["admin", "maintain"].includes(role), push: PERMISSION[role] !== "read" && role !== "none", triage: role !== "read" && role !== "none", pull: role !== "none" } } }];
  }

  // POST …/reactions: 201 with the new reaction, 200 with the existing one when it is already there.
  private react(repo: Repo, key: string, content: string): [number, Json] {
    const valid = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"];
    if (!valid.includes(content)) return [422, { message: "Validation Failed", errors: [{ resource: "Reaction", code: "invalid", field: "content" }] }];
    const list = repo.reactions.get(key) ?? [];
    const existing = list.find((x) => x.content === content && x.user.login === this.login);
    if (existing) return [200, existing];
    const reaction = { id: this.nextId++, node_id: `REA_${this.nextId}`, user: { login: this.login }, content, created_at: new Date().toISOString() };
    repo.reactions.set(key, [...list, reaction]);
    return [201, reaction];
  }

  private pullJson(fullName: string, p: Pull) {
    let sha: string;
    try {
      sha = this.headSha(fullName, p.head);
    } catch {
      sha = "0".repeat(40);
    }
    return {
      number: p.number, title: p.title, body: p.body, state: p.state, merged: p.merged, merged_at: p.merged ? new Date().toISOString() : null,
      closed_at: p.state === "closed" ? new Date().toISOString() : null,
      html_url: `https://github.com/${fullName}/pull/${p.number}`, head: { ref: p.head, sha }, base: { ref: p.base },
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const u = new URL(req.url!, this.url);
    const rec: RecordedRequest = {
      method: req.method!, path: u.pathname, query: Object.fromEntries(u.searchParams), body: raw ? JSON.parse(raw) : undefined,
      authorization: req.headers.authorization,
    };
    this.requests.push(rec);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(body === undefined ? "" : JSON.stringify(body));
    };
    const failure = this.failures.findIndex((f) => f.match(rec));
    if (failure >= 0) {
      const [f] = this.failures.splice(failure, 1);
      return send(f.status, f.body, f.headers);
    }
    const answer = this.route(rec);
    return answer ? send(answer[0], answer[1]) : send(404, { message: "Not Found" });
  }

  private route(r: RecordedRequest): [number, Json] | null {
    if (r.method === "GET" && r.path === "/user") return [200, { login: this.login, id: 1, type: "User" }];
    // GitHub App: the app (JWT) and its installation tokens.
    if (r.method === "GET" && r.path === "/app") return [200, { id: 42, slug: "ringmaster-test", name: "Ringmaster test" }];
    const install = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(r.path);
    if (r.method === "POST" && install) {
      return [201, { token: `ghs_installation${install[1]}token`, expires_at: new Date(Date.now() + 3_600_000).toISOString(), permissions: {}, repository_selection: "all" }];
    }
    const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(r.path);
    if (!m) return null;
    const fullName = `${m[1]}/${m[2]}`;
    const repo = this.repo(fullName);
    const rest = m[3] ?? "";
    const key = `${r.method} ${rest.replace(/\/\d+/g, "/:n").replace(/\/commits\/[^/]+/, "/commits/:ref")}`;
    const branch = /^\/branches\/(.+)$/.exec(rest)?.[1];
    if (r.method === "GET" && branch) return this.branchJson(fullName, decodeURIComponent(branch));
    const n = Number(/\/(\d+)/.exec(rest)?.[1]);
    const second = Number(/\/\d+\/[a-z]+\/(\d+)/.exec(rest)?.[1]);
    const collaborator = /^\/collaborators\/([^/]+)\/permission$/.exec(rest)?.[1];
    if (r.method === "GET" && collaborator) return this.permissionJson(repo, decodeURIComponent(collaborator));
    const ref = /\/commits\/([^/]+)/.exec(rest)?.[1];
    switch (key) {
      case "GET ":
        return [200, { full_name: fullName, default_branch: "main", private: true }];
      case "POST /pulls": {
        const open = [...repo.pulls.values()].find((p) => p.head === r.body.head && p.state === "open");
        if (open) return [422, { message: "Validation Failed", errors: [{ resource: "PullRequest", code: "custom", message: `A pull request already exists for ${m[1]}:${r.body.head}.` }] }];
        const pull: Pull = { number: this.nextNumber++, title: r.body.title, body: r.body.body, head: r.body.head, base: r.body.base, state: "open", merged: false };
        repo.pulls.set(pull.number, pull);
        return [201, this.pullJson(fullName, pull)];
      }
      case "GET /pulls": {
        const head = r.query.head?.split(":")[1];
        const list = [...repo.pulls.values()].filter((p) => (!head || p.head === head) && (!r.query.state || r.query.state === "all" || p.state === r.query.state));
        return [200, list.map((p) => this.pullJson(fullName, p))];
      }
      case "GET /pulls/:n":
        return repo.pulls.has(n) ? [200, this.pullJson(fullName, repo.pulls.get(n)!)] : null;
      case "PUT /pulls/:n/merge": {
        const p = repo.pulls.get(n);
        if (!p || p.state !== "open") return [405, { message: "Pull Request is not mergeable" }];
        if (r.body?.sha && r.body.sha !== this.headSha(fullName, p.head)) return [409, { message: "Head branch was modified. Review and try the merge again." }];
        Object.assign(p, { merged: true, state: "closed", mergeMethod: r.body?.merge_method ?? "merge", mergedSha: "f".repeat(40) });
        return [200, { sha: p.mergedSha, merged: true, message: "Pull Request successfully merged" }];
      }
      case "GET /issues/:n/comments":
        return [200, repo.comments.get(n) ?? []];
      case "POST /issues/:n/comments":
        return [201, this.push(repo.comments, n, { user: { login: this.login }, body: r.body.body })];
      case "GET /pulls/:n/comments":
        return [200, repo.reviewComments.get(n) ?? []];
      case "GET /pulls/:n/reviews":
        return [200, repo.reviews.get(n) ?? []];
      case "GET /pulls/:n/reviews/:n": {
        const review = (repo.reviews.get(n) ?? []).find((x) => x.id === second);
        return review ? [200, review] : null;
      }
      case "GET /pulls/:n/reviews/:n/comments":
        return [200, (repo.reviewComments.get(n) ?? []).filter((c) => c.pull_request_review_id === second)];
      case "POST /issues/:n/reactions":
        return this.react(repo, `issue:${n}`, r.body?.content);
      case "POST /issues/comments/:n/reactions":
        return this.react(repo, `comment:${n}`, r.body?.content);
      case "POST /pulls/comments/:n/reactions":
        return this.react(repo, `review-comment:${n}`, r.body?.content);
      case "GET /commits/:ref/check-runs": {
        const runs = repo.checkRuns.get(ref!) ?? [];
        return [200, { total_count: runs.length, check_runs: runs }];
      }
      case "GET /commits/:ref/status": {
        const statuses = repo.statuses.get(ref!) ?? [];
        return [200, { state: statuses.length ? "success" : "pending", sha: ref, total_count: statuses.length, statuses }];
      }
      default:
        return null;
    }
  }
}
