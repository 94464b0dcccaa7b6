import type { CampaignModel as Campaign, Prisma } from "@/lib/db";
import { plannerCooldownMs } from "@/lib/loop/backoff";
import { addEvent, cancelWaiting, changePhase, countTasks, MAX_REPLANS, replan } from "@/lib/campaigns/state";

type Tx = Prisma.TransactionClient;

/** The planner's curve: after the n-th trouble in a row (n ≥ 1) the architect waits base × 2^min(n−1, 4). */
export const replanDelayMs = (baseMs: number, n: number) => plannerCooldownMs(baseMs, Math.max(0, n - 1));

export const retryAt = (now: Date, baseMs: number, n: number) => new Date(now.getTime() + replanDelayMs(baseMs, n));

/**
 * How many re-plans in a row without progress this one makes. Progress is a task of the ending
 * plan completed: a broken task after others of its plan completed starts the count again at 1.
 * A drift verdict says the completed work does not serve the goal, so it is never progress: a
 * plan that completes tasks and drifts every time still runs out of re-plans.
 */
export const replansInARow = (previous: number, kind: "replan" | "drift", completedInPlan: number) =>
  kind === "replan" && completedInPlan > 0 ? 1 : previous + 1;

export type Replanned = { failed: false } | { failed: true; message: string };

/**
 * A re-plan the loop decided (a task broke the breaker, a drift verdict): the architect starts
 * after a growing wait, so a campaign that keeps failing does not re-plan in a tight loop; past
 * MAX_REPLANS in a row without progress the campaign fails with the reason instead.
 */
export async function autoReplan(tx: Tx, c: Campaign, reason: string, kind: "replan" | "drift", clock: { now: Date; baseMs: number }, runId?: string): Promise<Replanned> {
  const replans = replansInARow(c.replans, kind, (await countTasks(tx, c)).done);
  if (replans > MAX_REPLANS) {
    await cancelWaiting(tx, c);
    const message = `Gave up after ${MAX_REPLANS} re-plans in a row without progress; the last reason: ${reason.split("\n")[0].slice(0, 400)}`;
    await changePhase(tx, c.id, "failed", { failureLog: reason, planAfter: null });
    await addEvent(tx, c.id, "failed", message, runId);
    return { failed: true, message };
  }
  await replan(tx, c, reason, kind, { replans, planAfter: retryAt(clock.now, clock.baseMs, replans) }, runId);
  return { failed: false };
}
