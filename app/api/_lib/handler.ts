import { z } from "zod";
import { auth } from "@/auth";
import { actorForToken, type Actor } from "@/lib/auth/actor";
import { AccessError } from "@/lib/auth/access";
import { DomainError, INTERNAL } from "@/lib/errors";
import { getLogger } from "@/lib/log";
import { describeIssues } from "@/lib/validation/issues";
import { isSameOrigin } from "@/lib/auth/origin";
import { actorForPerson } from "@/lib/teams/current";
import { isSafeText, requireSafeText, UNSAFE_TEXT } from "@/lib/validation/safe-text";

// One error shape for every route (docs/ARCHITECTURE.md): { error: { code, message, field? } }.
// A refused form names every bad field in `fields` (field → sentence), the first also in `field`.
export function apiError(status: number, code: string, message: string, field?: string, fields?: Record<string, string>) {
  return Response.json({ error: { code, message, ...(field ? { field } : {}), ...(fields ? { fields } : {}) } }, { status, headers: { "cache-control": "no-store" } });
}

const unauthenticated = () => new DomainError(401, "unauthenticated", "sign in or send a valid bearer token");
const crossSite = () => new DomainError(403, "cross_site", "cross-site request refused (Origin does not match)");

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A bearer token, or the session cookie (then mutating requests must come from our own origin). */
export async function requireActor(req: Request): Promise<Actor> {
  const header = req.headers.get("authorization");
  if (header?.startsWith("Bearer ")) {
    const actor = await actorForToken(header.slice(7).trim());
    if (!actor) throw unauthenticated();
    return actor;
  }
  // No cookie, no session: answer without consulting next-auth.
  if (!req.headers.get("cookie")) throw unauthenticated();
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) throw unauthenticated();
  if (MUTATING.has(req.method)) {
    if (!isSameOrigin(req.headers.get("origin"), req.headers, req.url)) throw crossSite();
  }
  const actor = await actorForPerson(userId, req.headers.get("cookie"));
  if (!actor) throw new AccessError(404, "no team");
  return actor;
}

const invalid = (field: string, message: string) => new z.ZodError([{ code: "custom", path: [field], message, input: undefined }]);

/** The JSON body, refused with its field when a string in it could not be stored. */
export async function readJson(req: Request): Promise<unknown> {
  let body: unknown;
  try {
    body = JSON.parse(await req.text());
  } catch {
    throw invalid("body", "must be a JSON object");
  }
  requireSafeText(body);
  return body;
}

// Ids are short tokens; anything else names no object (404), and must never reach a query.
const MAX_ID_LENGTH = 200;
const unknownObject = () => new DomainError(404, "not_found", "not found");

async function checkedContext<C>(req: Request, ctx: C): Promise<C> {
  for (const [name, value] of new URL(req.url).searchParams) {
    if (!isSafeText(value)) throw invalid(name, UNSAFE_TEXT);
  }
  const pending = (ctx as { params?: Promise<Record<string, string | string[]>> } | undefined)?.params;
  if (!pending) return ctx;
  const values = await pending;
  for (const value of Object.values(values).flat()) {
    if (!isSafeText(value) || value.length > MAX_ID_LENGTH) throw unknownObject();
  }
  return { ...ctx, params: Promise.resolve(values) };
}

// API answers are per person and per moment: never kept by a browser or a shared cache. A stream
// sets its own rule (no-cache, no-transform) and keeps it.
function noStore(res: Response): Response {
  if (!res.headers.has("cache-control")) res.headers.set("cache-control", "no-store");
  return res;
}

export function handle<C>(fn: (req: Request, ctx: C) => Promise<Response>) {
  return async (req: Request, ctx: C): Promise<Response> => {
    try {
      return noStore(await fn(req, await checkedContext(req, ctx)));
    } catch (err) {
      if (err instanceof z.ZodError) {
        const issues = describeIssues(err);
        return apiError(400, "invalid", issues[0].message, issues[0].field, Object.fromEntries(issues.map((i) => [i.field, i.message])));
      }
      if (err instanceof DomainError && err.code !== INTERNAL) return apiError(err.status, err.code, err.message, err.field);
      getLogger("api").error({ err: (err as Error).message, stack: (err as Error).stack }, "unhandled API error");
      return apiError(500, INTERNAL, "internal error");
    }
  };
}
