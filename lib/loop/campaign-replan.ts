import type { CampaignModel as Campaign, Prisma } from "@/lib/db";
import { plannerCooldownMs } from "@/lib/loop/backoff";
import { addEvent, cancelWaiting, changePhase, replan } from "@/lib/campaigns/state";

type Tx = Prisma.TransactionClient;

/** Automatic re-plans (breaker, drift) a campaign gets; the next one fails it instead. */
export const MAX_REPLANS = 5;

/** The planner's curve: after the n-th trouble in a row (n ≥ 1) the architect waits base × 2^min(n−1, 4). */
export const replanDelayMs = (baseMs: number, n: number) => plannerCooldownMs(baseMs, Math.max(0, n - 1));

export const retryAt = (now: Date, baseMs: number, n: number) => new Date(now.getTime() + replanDelayMs(baseMs, n));

export type Replanned = { failed: false } | { failed: true; message: string };

/**
 * A re-plan the loop decided (a task broke the breaker, a drift verdict): the architect starts
 * after a growing wait, so a campaign that keeps failing does not re-plan in a tight loop; past
 * MAX_REPLANS the campaign fails with the reason instead.
 */
export async function autoReplan(tx: Tx, c: Campaign, reason: string, kind: string, clock: { now: Date; baseMs: number }, runId?: string): Promise<Replanned> {
  if (c.replans >= MAX_REPLANS) {
    await cancelWaiting(tx, c);
    const message = `Gave up after ${MAX_REPLANS} re-plans; the last reason: ${reason.split("\n")[0].slice(0, 400)}`;
    await changePhase(tx, c.id, "failed", { failureLog: reason, planAfter: null });
    await addEvent(tx, c.id, "failed", message, runId);
    return { failed: true, message };
  }
  const replans = c.replans + 1;
  await replan(tx, c, reason, kind, { replans, planAfter: retryAt(clock.now, clock.baseMs, replans) }, runId);
  return { failed: false };
}
