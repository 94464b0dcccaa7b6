import { z } from "zod";
import { getDb, type LoopMode } from "@/lib/db";
import { requireRole, requireTeamScope, type Actor } from "@/lib/auth/actor";
import { enqueueTick } from "@/lib/queues";
import { ControlError } from "@/lib/errors";
import type { AuditBy } from "@/lib/audit/record";
import { recordChange } from "@/lib/activity/change";
import { budgetStates, spentReason } from "@/lib/budgets/state";
import { atLeast, PERIODS, periodStart, type Period } from "@/lib/budgets/periods";
import { changeLoopMode } from "@/lib/loop/controls";

type Project = { id: string; teamId: string };

/** Why the project may start no more work now: a budget over it is spent and not overridden; else null. */
export async function spentBudgetReason(project: Project, now: Date): Promise<string | null> {
  const spent = (await budgetStates(getDb(), project, now)).find((b) => !b.overridden && atLeast(b.spentUsd, b.limitUsd));
  return spent ? spentReason(spent) : null;
}

/** Pauses a running loop for a spent budget, saying why; running runs carry on (they hold reservations). */
export async function pauseForBudget(project: Project, reason: string): Promise<void> {
  await changeLoopMode(project, "pause", { kind: "system" }, reason).catch(ignoreRace);
}

export const overrideInput = z.object({
  scope: z.enum(["project", "team"], { error: "must be project or team" }),
  period: z.enum(PERIODS, { error: "must be day or month" }),
}).strict();

/** The override an owner asks for through the API: checked, then applied. */
export async function overrideBudgetAs(actor: Actor, project: Project, raw: unknown) {
  requireRole(actor, "owner");
  const input = overrideInput.parse(raw);
  if (input.scope === "team") requireTeamScope(actor);
  return overrideBudget(project, input.scope, input.period, actor);
}

/**
 * An owner lifts a budget for the rest of its period: recorded once (a repeat changes
 * nothing) and audited.
 */
export async function overrideBudget(project: Project, scope: "project" | "team", period: Period, by: AuditBy, now = new Date()): Promise<{ created: boolean }> {
  const db = getDb();
  const start = periodStart(period, now);
  const key = scope === "team" ? "team" : project.id;
  const created = await db.$executeRaw`
    INSERT INTO "BudgetEvent" ("teamId", scope, period, "periodStart", kind, "byUserId")
    VALUES (${project.teamId}, ${key}, ${period}, ${start}, 'override', ${by.id ?? null}) ON CONFLICT DO NOTHING`;
  if (created === 0) return { created: false };
  await recordChange(project, {
    audit: { by, action: "budget.override", target: { type: scope === "team" ? "team" : "project", id: scope === "team" ? project.teamId : project.id }, after: { scope, period, periodStart: start.toISOString() } },
    activity: ["activity", `The ${scope}'s ${period === "day" ? "daily" : "monthly"} budget is overridden for the rest of the ${period}`],
    nudge: "budget overridden",
  });
  // Each loop the budget paused resumes at its next tick, which this nudge brings now.
  if (scope === "team") {
    for (const p of await db.project.findMany({ where: { teamId: project.teamId, archivedAt: null, NOT: { id: project.id } }, select: { id: true } })) {
      await enqueueTick(p.id, "budget overridden");
    }
  }
  return { created: true };
}

/**
 * The tick's budget check, for projects under a budget: a running loop pauses when one is
 * spent, and a loop a budget paused resumes once none is (raised, overridden, a new period).
 */
export async function applyBudgetToLoop(project: Project, loop: { mode: LoopMode; pauseReason: string | null }, now: Date): Promise<LoopMode> {
  if (loop.mode !== "running" && !(loop.mode === "paused" && loop.pauseReason)) return loop.mode;
  const reason = await spentBudgetReason(project, now);
  if (loop.mode === "running" && reason) await pauseForBudget(project, reason);
  else if (loop.mode === "paused" && !reason) await changeLoopMode(project, "resume", { kind: "system" }).catch(ignoreRace);
  else return loop.mode;
  return (await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } })).mode;
}

// A person changed the loop meanwhile: theirs is the newer word.
function ignoreRace(err: unknown) {
  if (!(err instanceof ControlError)) throw err;
}
