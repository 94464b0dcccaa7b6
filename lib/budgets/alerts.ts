import { getDb } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";
import { recordActivity } from "@/lib/activity/record";
import { ALERT_THRESHOLDS, atLeast, usd } from "@/lib/budgets/periods";
import { budgetName, budgetStates, type BudgetState } from "@/lib/budgets/state";

/** The thresholds a budget has reached, highest last. */
export const reachedThresholds = (b: Pick<BudgetState, "spentUsd" | "limitUsd">) =>
  ALERT_THRESHOLDS.filter((t) => atLeast(b.spentUsd, (b.limitUsd * t) / 100));

/**
 * Raises the 80/90/100 % alerts the ledger has reached, each once per budget and period
 * (a unique row decides which of two racing workers announces it). At 100 % the projects
 * under the budget are nudged, so their loops pause at once instead of at their next tick.
 */
export async function raiseBudgetAlerts(project: { id: string; teamId: string }, now = new Date()): Promise<number[]> {
  const db = getDb();
  const raised: number[] = [];
  for (const b of await budgetStates(db, project, now)) {
    if (b.overridden) continue;
    for (const t of reachedThresholds(b)) {
      const inserted = await db.$executeRaw`
        INSERT INTO "BudgetEvent" ("teamId", scope, period, "periodStart", kind)
        VALUES (${project.teamId}, ${b.scope}, ${b.period}, ${b.start}, ${`alert${t}`}) ON CONFLICT DO NOTHING`;
      if (inserted === 0) continue;
      raised.push(t);
      await recordActivity(project, "budgetAlert", `Budget alert: ${usd(b.spentUsd)} spent, ${t} % of ${budgetName(b)}${t === 100 ? "; the loop pauses and new runs are refused" : ""}`);
      if (t === 100) await nudgeScope(project, b.scope);
    }
  }
  return raised;
}

async function nudgeScope(project: { id: string; teamId: string }, scope: string) {
  const ids = scope === "team"
    ? (await getDb().project.findMany({ where: { teamId: project.teamId, archivedAt: null }, select: { id: true } })).map((p) => p.id)
    : [project.id];
  for (const id of ids) await enqueueTick(id, "budget reached");
}
