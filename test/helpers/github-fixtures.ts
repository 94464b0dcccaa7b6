// Fixtures shared by the GitHub tests: the double wired into the environment, a connected
// GitHub project on a local bare "remote", real example payloads, signed deliveries.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { sign } from "@octokit/webhooks-methods";
import { getDb } from "@/lib/db";
import { createDemoRepo } from "@/lib/demo/repo";
import { createProject } from "@/lib/projects/create";
import { PUT as putConnection } from "@/app/api/projects/[id]/github/route";
import { POST as postWebhook } from "@/app/api/webhooks/github/route";
import { addPrompt, createTeamWithProject } from "./fixtures";
import { tickAndRun } from "./run-once";
import { apiToken, params, request } from "./api";
import { GithubDouble } from "./github-double";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export const WEBHOOK_SECRET = "per-connection-webhook-secret-1";
export const ENV_WEBHOOK_SECRET = "environment-webhook-secret-12345";
export const PAT = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";

/** Starts the double and points Ringmaster's GitHub settings at it (before anything reads the env). */
export async function startGithubDouble(): Promise<GithubDouble> {
  const remotesRoot = mkdtempSync(join(tmpdir(), "rm-remotes-"));
  const double = await new GithubDouble(remotesRoot).start();
  Object.assign(process.env, {
    GITHUB_API_URL: double.url,
    GITHUB_GIT_URL: join(remotesRoot, "{owner}", "{repo}.git"),
    GITHUB_WEBHOOK_SECRET: ENV_WEBHOOK_SECRET,
    ENCRYPTION_KEY: "5e".repeat(32),
  });
  return double;
}

/** A team with a GitHub project on a fresh "remote" (a bare repository), connected through the API with a PAT. */
export async function createGithubProject(double: GithubDouble, opts: { webhookSecret?: string | null } = {}) {
  const { team, profile } = await createTeamWithProject({ loopEnabled: false });
  const repo = `widgets-${Math.random().toString(36).slice(2, 8)}`;
  const source = createDemoRepo(join(mkdtempSync(join(tmpdir(), "rm-src-")), "repo"));
  execFileSync("git", ["clone", "--bare", "-q", source, join(double.remotesRoot, "acme", `${repo}.git`)]);
  const project = await createProject(team.id, { name: repo, repoKind: "github", githubOwner: "acme", githubRepo: repo, baseBranch: "main", executorProfileId: profile.id }, { loopEnabled: true });
  await getDb().projectSettings.update({ where: { projectId: project.id }, data: { spawnCooldownMs: 0 } });
  const token = await apiToken(team.id, "admin");
  const secret = opts.webhookSecret === undefined ? WEBHOOK_SECRET : opts.webhookSecret;
  const res = await putConnection(request("PUT", `/api/projects/${project.id}/github`, token, { kind: "pat", token: PAT, ...(secret ? { webhookSecret: secret } : {}) }), params(project.id));
  if (res.status !== 201) throw new Error(`connect failed: ${res.status} ${await res.text()}`);
  return { team, profile, project, token, fullName: `acme/${repo}`, connection: await res.json() };
}

const examples = createRequire(import.meta.url)("@octokit/webhooks-examples") as { name: string; examples: Json[] }[];

/** A real payload from @octokit/webhooks-examples, moved to our repository. */
export function example(event: string, action: string | undefined, fullName: string, edit: (p: Json) => void = () => {}): Json {
  const found = examples.find((e) => e.name === event)?.examples.find((x) => x.action === action);
  if (!found) throw new Error(`no example for ${event}.${action}`);
  const payload = structuredClone(found);
  const [owner, name] = fullName.split("/");
  Object.assign(payload.repository, { full_name: fullName, name });
  payload.repository.owner.login = owner;
  edit(payload);
  return payload;
}

let deliveries = 0;

/** Sends a delivery through the route handler, signed with `secret` (null: unsigned). */
export async function deliver(event: string, payload: Json, secret: string | null = WEBHOOK_SECRET, deliveryId = `d-${process.pid}-${++deliveries}-${Date.now()}`) {
  const raw = JSON.stringify(payload);
  const headers: Record<string, string> = { "content-type": "application/json", "x-github-event": event, "x-github-delivery": deliveryId, "user-agent": "GitHub-Hookshot/test" };
  if (secret) headers["x-hub-signature-256"] = await sign(secret, raw);
  const res = await postWebhook(new Request("http://localhost/api/webhooks/github", { method: "POST", headers, body: raw }), undefined as never);
  return { status: res.status, body: await res.json(), deliveryId, raw, headers };
}

export const fileBlock = (file: string, text: string) => `\`\`\`file ${file}\n${text}\n\`\`\``;

/** A GitHub project whose first prompt's run opened a pull request (the run and its PR with it). */
export async function projectWithOpenPr(double: GithubDouble) {
  const fx = await createGithubProject(double);
  await addPrompt(fx.project.id, { number: 1, title: "Add feature", body: fileBlock("feature.txt", "hello") });
  const { run } = await tickAndRun(fx.project.id);
  const pr = await getDb().pullRequest.findFirstOrThrow({ where: { projectId: fx.project.id } });
  return { ...fx, run: run!, pr };
}
