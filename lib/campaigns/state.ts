import { getDb, type CampaignPhase, type Prisma } from "@/lib/db";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { promptApproval } from "@/lib/approvals/request";
import { orderTasks, type Plan } from "@/lib/campaigns/plan";
import { taskBody } from "@/lib/campaigns/inputs";

type Tx = Prisma.TransactionClient;

/** Seed 002's state machine; cancelled from any open phase, failed when the architect keeps failing. */
export const PHASE_TRANSITIONS: Readonly<Record<CampaignPhase, readonly CampaignPhase[]>> = {
  planning: ["executing", "failed", "cancelled"],
  executing: ["planning", "completed", "failed", "cancelled"],
  completed: [],
  failed: ["planning"],
  cancelled: [],
};

export const OPEN_PHASES: CampaignPhase[] = ["planning", "executing"];

/** A task fails for good after this many failed attempts (seed: `retry_counter > 3`), then the campaign re-plans. */
export const TASK_ATTEMPTS = 4;
/** Architect runs that may fail in a row before the campaign gives up. */
export const ARCHITECT_ATTEMPTS = 4;
/** Automatic re-plans in a row without progress a campaign gets; the next one fails it instead. */
export const MAX_REPLANS = 5;
/** Runs one milestone's drift check gets: a failed one runs again, up to this many in all. */
export const DRIFT_CHECK_ATTEMPTS = 3;
export const MILESTONES = [25, 50, 75] as const;

export class PhaseConflict extends Error {}

/** The one writer of a campaign's phase: a conditional update along PHASE_TRANSITIONS. */
export async function changePhase(tx: Tx, id: string, to: CampaignPhase, data: Prisma.CampaignUpdateManyMutationInput = {}) {
  const from = (Object.keys(PHASE_TRANSITIONS) as CampaignPhase[]).filter((f) => PHASE_TRANSITIONS[f].includes(to));
  const n = await tx.campaign.updateMany({ where: { id, phase: { in: from } }, data: { ...data, phase: to, phaseChangedAt: new Date() } });
  if (n.count !== 1) throw new PhaseConflict(`campaign ${id} cannot go to ${to}`);
}

export const addEvent = (tx: Tx, campaignId: string, kind: string, message: string, runId?: string) =>
  tx.campaignEvent.create({ data: { campaignId, kind, message, runId } });

/**
 * A valid plan becomes the campaign's prompts: numbered after the queue's last, dependencies
 * mapped from task ids to those numbers, four attempts each (the breaker), and the campaign executes.
 */
export async function applyPlan(tx: Tx, campaign: { id: string; projectId: string; planVersion: number }, plan: Plan, runId: string | null) {
  const project = await tx.project.findUniqueOrThrow({ where: { id: campaign.projectId }, include: { settings: true } });
  const last = await tx.prompt.findFirst({ where: { projectId: project.id, planningKey: project.planningKey }, orderBy: { number: "desc" }, select: { number: true } });
  const version = campaign.planVersion + 1;
  const ordered = orderTasks(plan.tasks);
  const numbers = new Map(ordered.map((t, i) => [t.id, (last?.number ?? 0) + 1 + i]));
  const approval = promptApproval(project.settings!.approvalPolicy, true);
  for (const task of ordered) {
    await tx.prompt.create({
      data: {
        projectId: project.id, planningKey: project.planningKey, number: numbers.get(task.id)!, title: task.description.split("\n")[0].slice(0, 200),
        body: taskBody(task), dependencies: task.dependencies.map((d) => numbers.get(d)!), domain: task.domain, origin: "campaign",
        approval, maxAttempts: TASK_ATTEMPTS, campaignId: campaign.id, taskId: task.id, campaignPlan: version,
        ...(approval === "pending" ? { approvals: { create: { teamId: project.teamId, projectId: project.id, kind: "prompt_run", requestedBy: "system" } } } : {}),
      },
    });
  }
  await changePhase(tx, campaign.id, "executing", {
    plan: plan as unknown as Prisma.InputJsonValue, planVersion: version, failures: 0, milestones: [], driftFailures: 0,
    tasksTotal: plan.tasks.length, tasksCompleted: 0, tasksFailed: 0,
  });
  await addEvent(tx, campaign.id, "plan", `Plan ${version}: ${plan.tasks.length} task${plan.tasks.length === 1 ? "" : "s"} (${ordered.map((t) => t.id).join(", ")})`, runId ?? undefined);
}

type Backoff = { replans?: number; planAfter: Date | null };

/**
 * Back to the architect with the reason: the current plan's waiting tasks are cancelled (running
 * ones finish). `backoff` says when the next architect may start (automatic re-plans wait).
 */
export async function replan(tx: Tx, campaign: { id: string; planVersion: number; phase: CampaignPhase }, reason: string, kind: string, backoff: Backoff, runId?: string) {
  await cancelWaiting(tx, campaign);
  const data = { failureLog: reason, ...backoff };
  if (campaign.phase !== "planning") await changePhase(tx, campaign.id, "planning", { ...data, failures: 0 });
  else await tx.campaign.update({ where: { id: campaign.id }, data });
  await addEvent(tx, campaign.id, kind, reasonLine(reason), runId);
}

/** A reason in one line for the campaign's history: a heading that ends in ":" takes the line under it (a run's error). */
export function reasonLine(reason: string): string {
  const [first = "", next] = reason.split("\n").map((l) => l.trim()).filter(Boolean);
  const line = first.endsWith(":") && next && !next.startsWith("…") ? `${first} ${next}` : first;
  return line.slice(0, 500);
}

/** The current plan's waiting tasks are cancelled; running ones finish. */
export async function cancelWaiting(tx: Tx, campaign: { id: string; planVersion: number }) {
  const waiting = await tx.prompt.findMany({ where: { campaignId: campaign.id, campaignPlan: campaign.planVersion, status: "pending" }, select: { id: true } });
  for (const p of waiting) await changePromptStatus(p.id, { from: "pending", to: "cancelled" }, tx);
}

/** Metrics of the current plan, counted from its prompts. */
export async function countTasks(tx: Tx, campaign: { id: string; planVersion: number }) {
  const rows = await tx.prompt.groupBy({ by: ["status"], where: { campaignId: campaign.id, campaignPlan: campaign.planVersion }, _count: { _all: true } });
  const n = (s: string) => rows.find((r) => r.status === s)?._count._all ?? 0;
  return { done: n("done"), failed: n("failed"), pending: n("pending"), running: n("in_progress"), total: rows.reduce((a, r) => a + r._count._all, 0) - n("cancelled") };
}

/** Milestones the progress has crossed that have not fired yet (each fires once, whatever the task count). */
export function crossedMilestones(done: number, total: number, reached: number[]): number[] {
  if (total === 0) return [];
  return MILESTONES.filter((m) => done * 100 >= m * total && !reached.includes(m));
}

export const getCampaign = (id: string) => getDb().campaign.findUnique({ where: { id } });
