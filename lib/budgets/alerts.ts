import { getDb } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";
import { recordActivity } from "@/lib/activity/record";
import { ALERT_THRESHOLDS, atLeast, periodStart, usd } from "@/lib/budgets/periods";
import { budgetName, budgetStates, type BudgetState } from "@/lib/budgets/state";

/** The thresholds a budget has reached, highest last. */
export const reachedThresholds = (b: Pick<BudgetState, "spentUsd" | "limitUsd">) =>
  ALERT_THRESHOLDS.filter((t) => atLeast(b.spentUsd, (b.limitUsd * t) / 100));

export interface RaisedAlert { threshold: number; message: string }

/**
 * Raises the 80/90/100 % alerts the ledger has reached, each once per budget and period
 * (a unique row decides which of two racing workers announces it). At 100 % the projects
 * under the budget are nudged, so their loops pause at once instead of at their next tick.
 */
export async function raiseBudgetAlerts(project: { id: string; teamId: string }, now = new Date()): Promise<RaisedAlert[]> {
  const db = getDb();
  const raised: RaisedAlert[] = [];
  for (const b of await budgetStates(db, project, now)) {
    if (b.overridden) continue;
    for (const t of reachedThresholds(b)) {
      const inserted = await db.$executeRaw`
        INSERT INTO "BudgetEvent" ("teamId", scope, period, "periodStart", kind)
        VALUES (${project.teamId}, ${b.scope}, ${b.period}, ${b.start}, ${`alert${t}`}) ON CONFLICT DO NOTHING`;
      if (inserted === 0) continue;
      const message = `Budget alert: ${usd(b.spentUsd)} spent, ${t} % of ${budgetName(b)}${t === 100 ? "; the loop pauses and new runs are refused" : ""}`;
      raised.push({ threshold: t, message });
      await recordActivity(project, "budgetAlert", message);
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

export type CurrentAlert = { scope: string; scopeName: string; period: "day" | "month"; threshold: number };

/** The highest alert each budget has reached in its current period, for the dashboard's banner. */
export async function currentBudgetAlerts(teamId: string, now = new Date()): Promise<CurrentAlert[]> {
  const db = getDb();
  const events = await db.budgetEvent.findMany({
    where: {
      teamId, kind: { startsWith: "alert" },
      OR: [{ period: "day", periodStart: periodStart("day", now) }, { period: "month", periodStart: periodStart("month", now) }],
    },
  });
  const projects = await db.project.findMany({ where: { teamId, id: { in: events.map((e) => e.scope) } }, select: { id: true, name: true } });
  const top = new Map<string, CurrentAlert>();
  for (const e of events) {
    const threshold = Number(e.kind.slice("alert".length));
    const key = `${e.scope}/${e.period}`;
    if ((top.get(key)?.threshold ?? 0) >= threshold) continue;
    const scopeName = e.scope === "team" ? "The team" : (projects.find((p) => p.id === e.scope)?.name ?? "A project");
    top.set(key, { scope: e.scope, scopeName, period: e.period as "day" | "month", threshold });
  }
  return [...top.values()].sort((a, b) => b.threshold - a.threshold);
}
