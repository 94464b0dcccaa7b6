import { getDb, type CampaignModel as Campaign, type PromptStatus } from "@/lib/db";
import { commitFileToBranch } from "@/lib/git";
import { prepareOwnBranch, pushOwnBranch } from "@/lib/github/own-branch";
import { getLogger } from "@/lib/log";
import type { Plan } from "@/lib/campaigns/plan";

export const STATE_PATH = ".campaign/state.json";
export const campaignBranch = (campaignId: string) => `ringmaster/campaign-${campaignId}`;

const TASK_STATUS: Record<PromptStatus, string> = { pending: "PENDING", in_progress: "RUNNING", done: "COMPLETED", failed: "FAILED", cancelled: "CANCELLED" };

type TaskRow = { taskId: string | null; status: PromptStatus; attempts: number };

/**
 * The campaign as seed 002's `.campaign/state.json` reads it: goal, status, the current plan with
 * each task's state, the log the next architect gets, metrics. No clock in it, so an unchanged
 * campaign writes no new commit.
 */
export function campaignState(c: Campaign, tasks: TaskRow[]) {
  const byId = new Map(tasks.map((t) => [t.taskId, t]));
  const plan = c.plan as Plan | null;
  return {
    campaign: c.id,
    title: c.title,
    project_goal: c.goal,
    status: c.phase.toUpperCase(),
    paused: c.paused,
    plan_version: c.planVersion,
    plan: plan && {
      tasks: plan.tasks.map((t) => ({ ...t, status: TASK_STATUS[byId.get(t.id)?.status ?? "pending"], retry_counter: byId.get(t.id)?.attempts ?? 0 })),
    },
    logs: c.failureLog,
    milestones: c.milestones,
    metrics: { tasks_total: c.tasksTotal, tasks_completed: c.tasksCompleted, tasks_failed: c.tasksFailed },
  };
}

/**
 * Mirrors the campaign's state (Postgres owns it) to `.campaign/state.json` on the campaign's own
 * branch, so agents and people reading git see what the dashboard shows; a GitHub project's
 * branch is pushed to GitHub after each new commit (and after a push that failed). A failure is
 * logged and retried at the next pass: the mirror never stops the campaign. Returns the new commit, if any.
 */
export async function mirrorCampaignState(campaignId: string): Promise<string | null> {
  const db = getDb();
  const c = await db.campaign.findUniqueOrThrow({ where: { id: campaignId }, include: { project: true } });
  const { project } = c;
  const github = project.repoKind === "github";
  if (!github && !project.repoPath) return null;
  // Read again if another writer (the web, another worker) moved the branch meanwhile: the commit
  // that lands last holds the newest state.
  let fresh = c;
  const content = async () => {
    fresh = await db.campaign.findUniqueOrThrow({ where: { id: campaignId }, include: { project: true } });
    const tasks = await db.prompt.findMany({ where: { campaignId, campaignPlan: fresh.planVersion }, select: { taskId: true, status: true, attempts: true } });
    return `${JSON.stringify(campaignState(fresh, tasks), null, 2)}\n`;
  };
  const branch = campaignBranch(c.id);
  try {
    const repoPath = github ? await prepareOwnBranch(project, branch) : project.repoPath!;
    const commit = await commitFileToBranch({
      repoPath, branch, baseBranch: project.activeBranch ?? project.baseBranch, path: STATE_PATH, content,
      message: () => `campaign(${fresh.id}): ${fresh.phase.toUpperCase()}, plan ${fresh.planVersion}, ${fresh.tasksCompleted}/${fresh.tasksTotal} tasks done`,
    });
    if (github) await pushOwnBranch(project, branch);
    return commit;
  } catch (err) {
    getLogger("campaigns").warn({ err: (err as Error).message, campaignId }, "campaign state not mirrored to git");
    return null;
  }
}
