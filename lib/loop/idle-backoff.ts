import { getLogger } from "@/lib/log";
import { nextTickBackoff, syncTickScheduler } from "@/lib/queues";
import type { TickSnapshot } from "@/lib/loop/load";
import type { Decision } from "@/lib/loop/types";

/**
 * Whether the tick found nothing that time alone could change: no run, merge or pull request
 * to watch, no campaign, no retry or cooldown running out, only events (a prompt, an approval,
 * a toggle, a finished run) can give it work, and each of those nudges the project.
 */
export function quietTick(snap: TickSnapshot, decision: Decision): boolean {
  if (snap.runs.length || snap.merging.length || snap.openPulls.length || snap.campaigning) return false;
  if (decision.kind === "idle" || decision.kind === "all_done") return true;
  return decision.kind === "wait" && decision.blocked.every((b) => b.retryInMs === 0);
}

/** The backoff level this tick leaves: a scheduled tick with nothing to do climbs, anything else resets. */
export function backoffAfterTick(snap: TickSnapshot, decision: Decision, scheduled: boolean): number {
  return nextTickBackoff(snap.settings.tickIntervalMs, snap.loopState.tickBackoff, scheduled && quietTick(snap, decision));
}

/**
 * Moves the project's safety-net tick to the period of its new level, starting one period from
 * now (this tick just ran). A Redis failure only leaves the old period until the schedule
 * check (lib/loop/schedules.ts) puts the one Postgres holds.
 */
export async function applyTickPeriod(projectId: string): Promise<void> {
  try {
    await syncTickScheduler(projectId, { startNext: "after_period" });
  } catch (err) {
    getLogger("tick").warn({ projectId, err: (err as Error).message }, "tick period not changed; the schedule check will");
  }
}
