// A local double of GitHub's OAuth web flow on loopback, laid out as GitHub Enterprise Server
// serves it (/login/oauth/... and /api/v3/...), so the app reaches it through AUTH_GITHUB_URL.
// Whoever `signedIn` names is the person signed in to "GitHub" in the browser: authorizing
// grants the app their account at once, as GitHub does for an app the person already approved.
// Every request is recorded so tests assert the exact exchange.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface GithubPerson {
  id: number;
  login: string;
  name: string | null;
  /** The public email on the profile; null sends the app to /user/emails, as on GitHub. */
  email: string | null;
  emails: { email: string; primary: boolean; verified: boolean; visibility: "public" | "private" | null }[];
}

export interface OAuthRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, string>;
  accept?: string;
  authorization?: string;
  /** The client id the request authenticated as (Basic header or client_id parameter). */
  clientId?: string;
}

interface Grant { person: GithubPerson; redirectUri: string; scope: string; challenge?: string; used: boolean; expiresAt: number }

const docs = "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";

export class GithubOAuthDouble {
  readonly requests: OAuthRequest[] = [];
  signedIn: GithubPerson | null = null;
  url = "";
  private server!: Server;
  private grants = new Map<string, Grant>();
  private tokens = new Map<string, { person: GithubPerson; scope: string }>();

  /** The OAuth app as registered on GitHub: its credentials and authorization callback URL. */
  constructor(readonly app: { clientId: string; clientSecret: string; callbackUrl: string }) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res).catch((err) => send(res, 500, { message: String(err) })));
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  calls(path: string) {
    return this.requests.filter((r) => r.path === path);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    const raw = await readBody(req);
    const body = req.headers["content-type"]?.includes("json") ? (JSON.parse(raw || "{}") as Record<string, string>) : Object.fromEntries(new URLSearchParams(raw));
    const basic = parseBasic(req.headers.authorization);
    const rec: OAuthRequest = {
      method: req.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams), body,
      accept: req.headers.accept, authorization: req.headers.authorization,
      clientId: basic?.id ?? body.client_id ?? url.searchParams.get("client_id") ?? undefined,
    };
    this.requests.push(rec);
    const route = `${rec.method} ${rec.path}`;
    if (route === "GET /login/oauth/authorize") return this.authorize(url.searchParams, res);
    if (route === "POST /login/oauth/access_token") return this.exchange(rec, basic?.secret ?? body.client_secret, res);
    if (route === "GET /api/v3/user") return this.withToken(req, res, (p) => send(res, 200, profile(p, this.url)));
    if (route === "GET /api/v3/user/emails") {
      return this.withToken(req, res, (p, scope) => scope.split(",").includes("user:email")
        ? send(res, 200, p.emails)
        : send(res, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest/users/emails#list-email-addresses-for-the-authenticated-user", status: "404" }));
    }
    send(res, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" });
  }

  private authorize(q: URLSearchParams, res: ServerResponse) {
    // GitHub shows an error page, not a redirect, for an unknown app or a foreign callback.
    if (q.get("client_id") !== this.app.clientId) return send(res, 404, "Not Found", "text/plain");
    const redirectUri = q.get("redirect_uri") ?? this.app.callbackUrl;
    if (!redirectUri.startsWith(this.app.callbackUrl)) return send(res, 400, "The redirect_uri is not associated with this application.", "text/plain");
    if (!this.signedIn) return send(res, 200, "<h1>Sign in to GitHub</h1>", "text/html");
    const code = randomBytes(10).toString("hex");
    const challenge = q.get("code_challenge") ?? undefined;
    if (challenge && q.get("code_challenge_method") !== "S256") return send(res, 400, "Only S256 code challenges are supported.", "text/plain");
    const scope = (q.get("scope") ?? "").split(/[ ,]+/).filter(Boolean).join(",");
    this.grants.set(code, { person: this.signedIn, redirectUri, scope, challenge, used: false, expiresAt: Date.now() + 600_000 });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    if (q.has("state")) back.searchParams.set("state", q.get("state")!);
    res.writeHead(302, { location: back.toString() }).end();
  }

  private exchange(rec: OAuthRequest, secret: string | undefined, res: ServerResponse) {
    const answer = (status: number, payload: Record<string, string>) => rec.accept?.includes("application/json")
      ? send(res, status, payload)
      : send(res, status, new URLSearchParams(payload).toString(), "application/x-www-form-urlencoded; charset=utf-8");
    // GitHub answers OAuth errors with 200 and an `error` field.
    const fail = (error: string, description: string) => answer(200, { error, error_description: description, error_uri: docs });
    if (rec.clientId !== this.app.clientId || secret !== this.app.clientSecret) {
      return fail("incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect.");
    }
    const { code, redirect_uri: redirectUri, code_verifier: verifier } = rec.body;
    const grant = code ? this.grants.get(code) : undefined;
    if (!grant || grant.used || grant.expiresAt < Date.now()) {
      return fail("bad_verification_code", "The code passed is incorrect or expired.");
    }
    if (redirectUri && redirectUri !== grant.redirectUri) {
      return fail("redirect_uri_mismatch", "The redirect_uri MUST match the registered callback URL for this application.");
    }
    if (grant.challenge && (!verifier || createHash("sha256").update(verifier).digest("base64url") !== grant.challenge)) {
      return fail("invalid_grant", "The code_verifier does not match the code_challenge.");
    }
    grant.used = true;
    const token = `gho_${randomBytes(18).toString("hex")}`;
    this.tokens.set(token, { person: grant.person, scope: grant.scope });
    answer(200, { access_token: token, token_type: "bearer", scope: grant.scope });
  }

  private withToken(req: IncomingMessage, res: ServerResponse, then: (p: GithubPerson, scope: string) => void) {
    const token = /^(?:bearer|token) (\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const known = token ? this.tokens.get(token) : undefined;
    if (!known) return send(res, 401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest", status: "401" });
    res.setHeader("x-oauth-scopes", known.scope.split(",").join(", "));
    then(known.person, known.scope);
  }
}

function profile(p: GithubPerson, base: string) {
  const api = `${base}/api/v3/users/${p.login}`;
  return {
    login: p.login, id: p.id, node_id: Buffer.from(`04:User${p.id}`).toString("base64"),
    avatar_url: `${base}/avatars/u/${p.id}?v=4`, gravatar_id: "", url: api, html_url: `${base}/${p.login}`,
    followers_url: `${api}/followers`, repos_url: `${api}/repos`, type: "User", user_view_type: "public", site_admin: false,
    name: p.name, company: null, blog: "", location: null, email: p.email, hireable: null, bio: null, twitter_username: null,
    public_repos: 3, public_gists: 0, followers: 1, following: 0,
    created_at: "2019-03-04T10:11:12Z", updated_at: "2025-01-02T03:04:05Z",
  };
}

function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  const m = /^Basic (\S+)$/i.exec(header ?? "");
  if (!m) return undefined;
  const [id, secret] = Buffer.from(m[1], "base64").toString().split(":");
  const decode = (s = "") => decodeURIComponent(s.replace(/\+/g, " "));
  return { id: decode(id), secret: decode(secret) };
}

function send(res: ServerResponse, status: number, body: unknown, type = "application/json; charset=utf-8") {
  res.writeHead(status, { "content-type": type }).end(typeof body === "string" ? body : JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}
