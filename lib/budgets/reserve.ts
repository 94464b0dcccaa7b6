import type { Prisma } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { runCeilings } from "@/lib/spend/ceilings";
import { budgetName, budgetStates, spentReason } from "@/lib/budgets/state";
import { atLeast, usd } from "@/lib/budgets/periods";

/** A budget refused a run: spent (the loop pauses) or only held by running runs (the spawn waits). */
export class BudgetRefusal extends DomainError {
  constructor(message: string, readonly budgetSpent: boolean) {
    super(409, "budget", message);
  }
}

/**
 * Admits a run against its project's and team's budgets inside the claim's transaction.
 * The team's row lock serializes admissions across every worker process, so runs claimed
 * in parallel each see what the others reserved: together they cannot commit more than the
 * budget has left, except for what a run's own ceiling lets it spend past that (finish mode).
 */
/** What the run may spend (null: no budget applies), held against the budgets until it ends; throws BudgetRefusal. */
export async function reserveForRun(tx: Prisma.TransactionClient, projectId: string, profileId: string, now: Date): Promise<number | null> {
  const { teamId, settings } = await tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { teamId: true, settings: true } });
  await tx.$queryRaw`SELECT 1 FROM "Team" WHERE id = ${teamId} FOR UPDATE`;
  const profile = await tx.agentProfile.findUniqueOrThrow({ where: { id: profileId } });
  const run = { ceilingUsd: runCeilings(profile, settings!).maxCostUsd, stopsRuns: settings!.budgetStopsRuns };
  const project = { id: projectId, teamId };
  const active = (await budgetStates(tx, project, now)).filter((b) => !b.overridden);
  if (active.length === 0) return null;
  const tightest = active
    .map((b) => ({ b, left: b.limitUsd - b.spentUsd - b.heldUsd }))
    .reduce((a, c) => (c.left < a.left ? c : a));
  const { b, left } = tightest;
  if (atLeast(b.spentUsd, b.limitUsd)) {
    throw new BudgetRefusal(spentReason(b), true);
  }
  if (atLeast(0, left)) {
    throw new BudgetRefusal(`waiting for budget: running runs hold ${usd(b.heldUsd)} of ${budgetName(b)}, ${usd(b.spentUsd)} is spent`, false);
  }
  // Without a cost ceiling the run's only bound is what the budget has left; with "stop
  // runs" a run may never spend past it either.
  const ceiling = run.ceilingUsd ?? Infinity;
  return run.stopsRuns || run.ceilingUsd === null ? Math.min(ceiling, left) : ceiling;
}
