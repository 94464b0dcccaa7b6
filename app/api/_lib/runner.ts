import { runnerForToken, type RunnerCaller } from "@/lib/auth/runner-tokens";
import { requireAgent } from "@/lib/runners/agents";
import { DomainError } from "@/lib/errors";

// The runner API answers runner tokens only (rm_runner_…); a person's session or an API token
// gets 401 here, as a runner token does everywhere else.
export async function requireRunner(req: Request): Promise<RunnerCaller> {
  const header = req.headers.get("authorization");
  const caller = header?.startsWith("Bearer ") ? await runnerForToken(header.slice(7).trim()) : null;
  if (!caller) throw new DomainError(401, "unauthenticated", "send a valid runner token (Authorization: Bearer rm_runner_…)");
  return caller;
}

/** The runner and its registered agent (X-Agent-ID): 400 without the header, 404 when unknown. */
export async function requireRunnerAgent(req: Request) {
  const caller = await requireRunner(req);
  return { caller, agent: await requireAgent(caller, req.headers.get("x-agent-id")) };
}
