import { z } from "zod";
import { getDb } from "@/lib/db";
import { requireRole, requireTeamScope, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { enqueueTick } from "@/lib/queues";
import { budgetShape } from "@/lib/spend/ceiling-input";

export const teamBudgetInput = z.object(budgetShape).partial().strict();

export async function getTeamBudget(teamId: string) {
  return getDb().team.findUniqueOrThrow({ where: { id: teamId }, select: { dailyBudgetUsd: true, monthlyBudgetUsd: true } });
}

/** An owner sets the team's budgets (audited); every project's tick re-checks its loop against them. */
export async function setTeamBudget(actor: Actor, raw: unknown) {
  requireTeamScope(actor);
  requireRole(actor, "owner");
  const input = teamBudgetInput.parse(raw);
  const db = getDb();
  const before = await getTeamBudget(actor.teamId);
  const after = await db.team.update({ where: { id: actor.teamId }, data: input, select: { dailyBudgetUsd: true, monthlyBudgetUsd: true } });
  await recordAudit({ teamId: actor.teamId, by: actor, action: "budget.team", target: { type: "team", id: actor.teamId }, before, after });
  for (const p of await db.project.findMany({ where: { teamId: actor.teamId, archivedAt: null }, select: { id: true } })) {
    await enqueueTick(p.id, "team budget changed");
  }
  return after;
}
