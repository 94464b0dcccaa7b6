import { App, Octokit } from "octokit";
import { getDb, type GithubConnectionModel as GithubConnection } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/log";
import { decryptSecret } from "@/lib/crypto/secrets";
import { DomainError, INTERNAL } from "@/lib/errors";
import { MISDIRECTED, pinnedFetch, requireApiBaseUrl } from "@/lib/github/api-hosts";

export type GithubClient = InstanceType<typeof Octokit>;

/** A connection whose requests GitHub refused for longer than we wait in place: the job retries later. */
export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterS: number, what: string) {
    super(500, INTERNAL, `GitHub rate limit on ${what}: retry in ${retryAfterS} s`);
  }
}

type Options = { method: string; url: string };

// Short waits happen in place (the throttling plugin holds the request, later ones queue
// behind it); a long one fails the request so the queue retries the job and no worker slot sleeps.
function onLimit(kind: string) {
  return (retryAfter: number, options: Options, _octokit: unknown, retryCount: number) => {
    const wait = retryAfter <= getEnv().GITHUB_MAX_INLINE_WAIT_S && retryCount < 3;
    getLogger("github").warn({ kind, retryAfter, retryCount, request: `${options.method} ${options.url}`, wait }, "GitHub rate limit");
    return wait;
  };
}

/** Octokit for one connection: pinned to its API host, which must be allowed (lib/github/api-hosts). */
export function clientClass(conn: Pick<GithubConnection, "id" | "apiBaseUrl">) {
  const baseUrl = requireApiBaseUrl(conn.apiBaseUrl);
  const fetch = pinnedFetch(baseUrl);
  const pinned = {
    baseUrl,
    userAgent: "ringmaster",
    // One limiter per connection: another team's installation does not slow this one down.
    throttle: { id: conn.id, onRateLimit: onLimit("primary"), onSecondaryRateLimit: onLimit("secondary") },
    // A refused host is final: retrying it would only wait.
    retry: { doNotRetry: [400, 401, 403, 404, 410, MISDIRECTED, 422, 451] },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  };
  // The function form, so no option given later (the app's installation clients) replaces the pin.
  return Octokit.defaults((options: Record<string, unknown>) => ({
    ...options, ...pinned, request: { ...(options.request as object), fetch },
  }));
}

export async function newClient(conn: GithubConnection): Promise<GithubClient> {
  const Client = clientClass(conn);
  if (conn.kind === "pat") return new Client({ auth: decryptSecret(conn.encryptedToken!) });
  const app = new App({ appId: conn.appId!, privateKey: decryptSecret(conn.encryptedPrivateKey!), Octokit: Client });
  // Installation tokens last an hour; the app's auth hook caches and renews them.
  return (await app.getInstallationOctokit(Number(conn.installationId))) as GithubClient;
}

const holder = globalThis as unknown as { __ringmasterGithub?: Map<string, { stamp: string; client: Promise<GithubClient> }> };

/** One client per connection per process; a changed connection (new credentials) gets a new one. */
export async function requireClient(connectionId: string): Promise<{ client: GithubClient; connection: GithubConnection }> {
  const connection = await getDb().githubConnection.findUniqueOrThrow({ where: { id: connectionId } });
  const stamp = `${connection.encryptedToken}|${connection.encryptedPrivateKey}|${connection.apiBaseUrl}`;
  const map = (holder.__ringmasterGithub ??= new Map());
  let entry = map.get(connectionId);
  if (!entry || entry.stamp !== stamp) {
    entry = { stamp, client: newClient(connection) };
    map.set(connectionId, entry);
    entry.client.catch(() => map.delete(connectionId));
  }
  return { client: await entry.client, connection };
}

/** The token git sends on a push: the PAT, or a current installation token. */
export async function gitToken(client: GithubClient): Promise<string> {
  const auth = (await client.auth({ type: "installation" })) as { token: string };
  return auth.token;
}

/**
 * A token for git on a machine the server does not control (a remote runner): for an app
 * connection, an installation token GitHub itself limits to the one repository and to its
 * contents (fetch and push: no pull requests, issues, workflows or other repositories of the
 * installation). A personal access token cannot be narrowed: it goes as it is.
 */
export async function narrowGitToken(client: GithubClient, connection: Pick<GithubConnection, "kind">, repo: string): Promise<string> {
  if (connection.kind === "pat") return gitToken(client);
  const auth = (await client.auth({ type: "installation", repositoryNames: [repo], permissions: { contents: "write" } })) as { token: string };
  return auth.token;
}

/** How long GitHub asked us to wait, when an error is a rate limit; null for any other error. */
export function rateLimitWaitMs(err: unknown, now = Date.now()): number | null {
  const e = err as { status?: number; message?: string; response?: { headers?: Record<string, string | undefined> } };
  if (e?.status !== 403 && e?.status !== 429) return null;
  const headers = e.response?.headers ?? {};
  if (headers["retry-after"]) return Number(headers["retry-after"]) * 1000;
  if (headers["x-ratelimit-remaining"] === "0" && headers["x-ratelimit-reset"]) return Math.max(0, Number(headers["x-ratelimit-reset"]) * 1000 - now) + 1000;
  return /secondary rate/i.test(e.message ?? "") ? 60_000 : null;
}
