import { z } from "zod";
import { auth } from "@/auth";
import { actorForToken, actorForUser, type Actor } from "@/lib/auth/actor";
import { AccessError } from "@/lib/teams/membership";
import { ControlError } from "@/lib/loop/controls";
import { EnvError } from "@/lib/env";
import { PromptStateError } from "@/lib/prompts/update";
import { RunStateError } from "@/lib/runs/cancel";
import { getLogger } from "@/lib/log";

// One error shape for every route (DESIGN.md style): { error: { code, message, field? } }.
export function apiError(status: number, code: string, message: string, field?: string) {
  return Response.json({ error: { code, message, ...(field ? { field } : {}) } }, { status });
}

class Unauthenticated extends Error {}
class CrossSite extends Error {}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A bearer token, or the session cookie (then mutating requests must come from our own origin). */
export async function requireActor(req: Request): Promise<Actor> {
  const header = req.headers.get("authorization");
  if (header?.startsWith("Bearer ")) {
    const actor = await actorForToken(header.slice(7).trim());
    if (!actor) throw new Unauthenticated();
    return actor;
  }
  // No cookie, no session: answer without consulting next-auth.
  if (!req.headers.get("cookie")) throw new Unauthenticated();
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) throw new Unauthenticated();
  if (MUTATING.has(req.method)) {
    const origin = req.headers.get("origin");
    const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
    if (!origin || !host || new URL(origin).host !== host) throw new CrossSite();
  }
  const actor = await actorForUser(userId);
  if (!actor) throw new AccessError(404, "no team");
  return actor;
}

export async function readJson(req: Request): Promise<unknown> {
  try {
    return await req.json();
  } catch {
    throw new z.ZodError([{ code: "custom", path: ["body"], message: "must be a JSON object", input: undefined }]);
  }
}

export function handle<C>(fn: (req: Request, ctx: C) => Promise<Response>) {
  return async (req: Request, ctx: C): Promise<Response> => {
    try {
      return await fn(req, ctx);
    } catch (err) {
      if (err instanceof z.ZodError) {
        const issue = err.issues[0];
        const field = issue.path.join(".") || "body";
        return apiError(400, "invalid", `${field} ${issue.message}`, field);
      }
      if (err instanceof Unauthenticated) return apiError(401, "unauthenticated", "sign in or send a valid bearer token");
      if (err instanceof CrossSite) return apiError(403, "cross_site", "cross-site request refused (Origin does not match)");
      if (err instanceof AccessError) return apiError(err.status, err.status === 404 ? "not_found" : "forbidden", err.message);
      if (err instanceof ControlError) return apiError(err.status, err.status === 400 ? "invalid" : "conflict", `${err.field} ${err.message}`, err.field);
      if (err instanceof PromptStateError || err instanceof RunStateError) return apiError(409, "conflict", err.message);
      if (err instanceof EnvError) return apiError(500, "misconfigured", err.message);
      getLogger("api").error({ err: (err as Error).message, stack: (err as Error).stack }, "unhandled API error");
      return apiError(500, "internal", "internal error");
    }
  };
}
