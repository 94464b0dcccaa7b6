import { Prisma, type Db } from "@/lib/db";
import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { PERIOD_WORDS, periodStart, usd, type Period } from "@/lib/budgets/periods";

type Client = Pick<Db, "$queryRaw">;

/** One budget that applies to a project now, with what the ledger and live runs hold against it. */
export type BudgetState = {
  /** "team" or the project's id, as stored on budget events */
  scope: string;
  period: Period;
  start: Date;
  limitUsd: number;
  /** what the ledger holds for this scope since the period started */
  spentUsd: number;
  /** what live runs in this scope may still spend of their reservations */
  heldUsd: number;
  overridden: boolean;
};

export const budgetName = (b: Pick<BudgetState, "scope" | "period" | "limitUsd">) =>
  `the ${b.scope === "team" ? "team's" : "project's"} ${PERIOD_WORDS[b.period]} budget of ${usd(b.limitUsd)}`;

/** Why no new run may start under a spent budget: the loop's pause reason and a refused run's. */
export const spentReason = (b: BudgetState) => b.limitUsd === 0
  ? `budget: ${budgetName(b)}, which means runs are refused`
  : `budget reached: ${budgetName(b)} is spent (${usd(b.spentUsd)}); new runs are refused until the period ends or an owner raises or overrides it`;

type Row = { scope: string; period: Period; limitUsd: number };

/** The budgets set for a project and its team (none set: an empty list). */
async function budgetsOf(db: Client, project: { id: string; teamId: string }): Promise<Row[]> {
  const [row] = await db.$queryRaw<{ td: number | null; tm: number | null; pd: number | null; pm: number | null }[]>`
    SELECT t."dailyBudgetUsd" AS td, t."monthlyBudgetUsd" AS tm, s."dailyBudgetUsd" AS pd, s."monthlyBudgetUsd" AS pm
    FROM "Team" t LEFT JOIN "ProjectSettings" s ON s."projectId" = ${project.id} WHERE t.id = ${project.teamId}`;
  if (!row) return [];
  const all: { scope: string; period: Period; limitUsd: number | null }[] = [
    { scope: project.id, period: "day", limitUsd: row.pd },
    { scope: project.id, period: "month", limitUsd: row.pm },
    { scope: "team", period: "day", limitUsd: row.td },
    { scope: "team", period: "month", limitUsd: row.tm },
  ];
  return all.filter((b): b is Row => b.limitUsd !== null);
}

/**
 * Every budget that applies to the project, measured from the ledger. Spend is counted by
 * when its line was first written; a live run holds what its reservation has left.
 */
export async function budgetStates(db: Client, project: { id: string; teamId: string }, now: Date): Promise<BudgetState[]> {
  const budgets = await budgetsOf(db, project);
  return Promise.all(budgets.map(async (b) => {
    const start = periodStart(b.period, now);
    const projectOnly = b.scope === "team" ? null : project.id;
    const [row] = await db.$queryRaw<{ spent: number; held: number; overridden: boolean }[]>`
      SELECT
        (SELECT COALESCE(SUM(e."costUsd"), 0) FROM "SpendEntry" e
          WHERE e."teamId" = ${project.teamId} AND (${projectOnly}::text IS NULL OR e."projectId" = ${projectOnly}) AND e."createdAt" >= ${start})::float8 AS spent,
        (SELECT COALESCE(SUM(GREATEST(r."reservedUsd" - COALESCE((SELECT SUM(x."costUsd") FROM "SpendEntry" x WHERE x."runId" = r.id), 0), 0)), 0)
          FROM "Run" r JOIN "Project" p ON p.id = r."projectId"
          WHERE p."teamId" = ${project.teamId} AND (${projectOnly}::text IS NULL OR r."projectId" = ${projectOnly})
            AND r.status::text IN (${Prisma.join([...LIVE_RUN_STATUSES])}) AND r."reservedUsd" IS NOT NULL)::float8 AS held,
        EXISTS (SELECT 1 FROM "BudgetEvent" WHERE "teamId" = ${project.teamId} AND scope = ${b.scope} AND period = ${b.period}
          AND "periodStart" = ${start} AND kind = 'override') AS overridden`;
    return { ...b, start, spentUsd: row.spent, heldUsd: row.held, overridden: row.overridden };
  }));
}
