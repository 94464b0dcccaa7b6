import { z } from "zod";
import { getDb, type AgentModel as Agent } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { isRunnerTokenCurrent, type RunnerCaller } from "@/lib/auth/runner-tokens";
import { wholeNumber } from "@/lib/validation/numbers";
import { claimTrigger } from "@/lib/runners/claim";
import { describeTrigger, type Trigger } from "@/lib/runners/trigger";
import { armWake } from "@/lib/runners/wake";

export const pollQuery = z.object({ wait: wholeNumber(0, 60, " seconds").default(30) });

/**
 * Seed 004's `GET /api/poll`, as a real long-poll: the request is held until a trigger can be
 * claimed, woken at once by a Redis wake-up (a run queued for runners, an offer made), or
 * answers `{ trigger: null }` after `wait` seconds. No sleep loop: between wake-ups it costs
 * nothing but an idle socket.
 */
export async function pollForTrigger(caller: RunnerCaller, agent: Agent, waitSeconds: number, signal?: AbortSignal): Promise<{ trigger: Trigger | null }> {
  const db = getDb();
  const env = getEnv();
  const deadline = Date.now() + waitSeconds * 1000;
  // Polling is asking for work: a runner that closed and polls again is back. A poll its runner
  // already gave up on (it then closed) may be read only after the close: that one revives nothing.
  if (agent.status === "offline" && !signal?.aborted) await db.agent.update({ where: { id: agent.id }, data: { status: "idle" } });
  for (;;) {
    const wake = armWake(agent.teamId);
    await wake.armed;
    const claimed = await claimTrigger(agent, { now: new Date(), leaseTtlMs: env.LEASE_TTL_MS }).catch((err) => { wake.cancel(); throw err; });
    if (claimed) {
      wake.cancel();
      return { trigger: await describeTrigger(claimed) };
    }
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) { wake.cancel(); return { trigger: null }; }
    // A held poll is presence: it looks again at least once a lease TTL, and each look marks
    // the agent seen (claimTrigger), so its offers and assignments are not released while it waits.
    await wake.wait(Math.min(left, env.LEASE_TTL_MS), signal);
    if (signal?.aborted) return { trigger: null };
    // A token revoked while its poll was held gets no more work.
    if (!(await isRunnerTokenCurrent(caller.tokenId))) return { trigger: null };
  }
}
