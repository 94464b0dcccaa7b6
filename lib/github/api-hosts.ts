import { getEnv } from "@/lib/env";
import { DomainError, INTERNAL } from "@/lib/errors";

// A connection's API base URL is typed by a team admin, and the server sends that connection's
// token to it: only github.com's API and the hosts the operator configured may be named.
const GITHUB_API = "https://api.github.com";

/** The status a request to another host than its connection's gets, without leaving the process. */
export const MISDIRECTED = 421;

export const allowedApiOrigins = (): string[] =>
  [GITHUB_API, new URL(getEnv().GITHUB_API_URL).origin, ...getEnv().GITHUB_API_HOSTS];

/** Why a connection may not use this API base URL, or null when it may. */
export function apiBaseUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (u.username || u.password) return "must not contain credentials";
  if (u.search || u.hash) return "must not have a query or a fragment";
  if (!allowedApiOrigins().includes(u.origin)) return `must be ${GITHUB_API} or a host the server's operator lists in GITHUB_API_HOSTS`;
  return null;
}

/** A stored connection whose host is not (or no longer) allowed: the operator's to fix, not the caller's. */
export class ApiHostError extends DomainError {
  constructor(message: string) {
    super(500, INTERNAL, message);
  }
}

/** The base URL a connection's client talks to; throws when its host is not (or no longer) allowed. */
export function requireApiBaseUrl(apiBaseUrl: string | null): string {
  const url = (apiBaseUrl ?? getEnv().GITHUB_API_URL).replace(/\/+$/, "");
  const problem = apiBaseUrlProblem(url);
  if (problem) throw new ApiHostError(`the GitHub connection's API URL ${problem}`);
  return url;
}

const refuse = (message: string) =>
  new Response(JSON.stringify({ message }), { status: MISDIRECTED, headers: { "content-type": "application/json" } });

/**
 * fetch for one connection's client: requests go to its own origin only, and redirects are
 * followed by hand within that origin, so a redirect never carries the token to another host.
 */
export function pinnedFetch(baseUrl: string, fetchImpl: typeof fetch = fetch): typeof fetch {
  const origin = new URL(baseUrl).origin;
  return async (input, init) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    for (let hop = 0; hop <= 5; hop++) {
      if (url.origin !== origin) return refuse(`not sent: ${url.origin} is not this connection's GitHub host (${origin}), redirect not followed`);
      const res = await fetchImpl(url, { ...init, redirect: "manual" });
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res;
      url = new URL(location, url);
    }
    return refuse("not sent: too many redirects");
  };
}
