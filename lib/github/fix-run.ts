import { getDb, type Prisma } from "@/lib/db";
import { publishOutbox, recordOutbox } from "@/lib/queues";
import { recordActivity } from "@/lib/activity/record";
import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { BudgetRefusal, reserveForRun } from "@/lib/budgets/reserve";

type Tx = Prisma.TransactionClient;
type LockedPr = NonNullable<Awaited<ReturnType<typeof lockPullRequest>>>;

export type FixOutcome = "started" | "not_new" | "not_open" | "busy" | "capped" | "no_profile" | "over_budget";

async function lockPullRequest(tx: Tx, id: string) {
  await tx.$queryRaw`SELECT id FROM "PullRequest" WHERE id = ${id} FOR UPDATE`;
  return tx.pullRequest.findUnique({ where: { id }, include: { project: { include: { settings: true } } } });
}

async function nextPromptNumber(tx: Tx, projectId: string, planningKey: string): Promise<number> {
  const top = await tx.prompt.aggregate({ where: { projectId, planningKey }, _max: { number: true } });
  return (top._max.number ?? 0) + 1;
}

/**
 * Seed 000's feedback callback: a `reviewer_fix` run on the PR's own branch and worktree, its
 * prompt holding the feedback. Under the PR's row lock, so deliveries of one review racing
 * each other start one run; `isNew` re-checks the state the caller saw against the locked row.
 * Past the cap a human is asked (an Approval of kind fix_cycle_cap) instead of looping.
 */
export async function startFixRun(input: {
  pullRequestId: string;
  title: string;
  body: string;
  isNew: (pr: LockedPr) => boolean;
  record: (pr: LockedPr) => Prisma.PullRequestUpdateInput;
  /** Writes that commit with the run (where the request came from). */
  alongside?: (tx: Tx, made: { runId: string; promptId: string }) => Promise<void>;
}): Promise<FixOutcome> {
  const db = getDb();
  const result = await db.$transaction(async (tx) => {
    const pr = await lockPullRequest(tx, input.pullRequestId);
    if (!pr || pr.state !== "open") return { outcome: "not_open" as const };
    if (!input.isNew(pr)) return { outcome: "not_new" as const };
    // Feedback arriving while a fix runs stays unrecorded: the next check after the fix sees it.
    const live = await tx.run.count({ where: { pullRequestId: pr.id, status: { in: [...LIVE_RUN_STATUSES] } } });
    if (live > 0) return { outcome: "busy" as const };
    const settings = pr.project.settings!;
    // Each "go on" a person gives at the cap buys another maxFixCycles cycles.
    const allowances = await tx.approval.count({ where: { pullRequestId: pr.id, kind: "fix_cycle_cap", status: "approved" } });
    if (pr.fixCycles >= settings.maxFixCycles * (1 + allowances)) {
      await tx.pullRequest.update({ where: { id: pr.id }, data: input.record(pr) });
      const asked = await tx.approval.count({ where: { pullRequestId: pr.id, kind: "fix_cycle_cap", status: "pending" } });
      if (!asked && settings.approveFixPastCap) {
        await tx.approval.create({
          data: {
            teamId: pr.project.teamId, projectId: pr.projectId, kind: "fix_cycle_cap", pullRequestId: pr.id, promptId: pr.promptId,
            requestedBy: "system", comment: `PR #${pr.number} reached ${pr.fixCycles} fix cycles: ${input.title}`,
          },
        });
      }
      return { outcome: "capped" as const, pr };
    }
    const profile = settings.executorProfileId ? await tx.agentProfile.findUnique({ where: { id: settings.executorProfileId } }) : null;
    if (!profile) return { outcome: "no_profile" as const, pr };
    // Refused by a budget, the feedback stays unrecorded: the next check after the budget frees up sees it.
    let reservedUsd: number | null;
    try {
      reservedUsd = await reserveForRun(tx, pr.projectId, profile.id, new Date());
    } catch (err) {
      if (err instanceof BudgetRefusal) return { outcome: "over_budget" as const, pr, reason: err.message };
      throw err;
    }
    const prompt = await tx.prompt.create({
      data: {
        projectId: pr.projectId, planningKey: pr.project.planningKey, number: await nextPromptNumber(tx, pr.projectId, pr.project.planningKey),
        title: input.title, body: input.body, status: "in_progress", origin: "review", branch: pr.headBranch,
        // One attempt: a failed fix is not retried by the loop; the next review or check asks again.
        maxAttempts: 1, attempts: 0,
      },
    });
    const run = await tx.run.create({
      data: {
        projectId: pr.projectId, promptId: prompt.id, pullRequestId: pr.id, kind: "reviewer_fix",
        agentProfileId: profile.id, adapter: profile.adapter, model: profile.model, reservedUsd,
      },
    });
    await tx.pullRequest.update({ where: { id: pr.id }, data: { ...input.record(pr), fixCycles: { increment: 1 }, lastReviewRunTime: new Date() } });
    await input.alongside?.(tx, { runId: run.id, promptId: prompt.id });
    // The run's spawn order commits with it: Redis being away delays the fix, never loses it.
    const outbox = await recordOutbox(tx, [{ kind: "spawn", runId: run.id }]);
    return { outcome: "started" as const, pr, run, prompt, outbox };
  });
  const project = "pr" in result && result.pr ? result.pr.project : null;
  if (result.outcome === "started") {
    await publishOutbox(result.outbox);
    await recordActivity(project!, "taskAssigned", `PR #${result.pr.number}: ${input.title} (fix cycle ${result.pr.fixCycles + 1}); run ${result.run.id} queued`, {
      runId: result.run.id, promptId: result.prompt.id,
    });
  } else if (result.outcome === "capped") {
    await recordActivity(project!, "activity", `PR #${result.pr.number}: ${result.pr.fixCycles} fix cycles reached; a person decides what happens next`);
  } else if (result.outcome === "over_budget") {
    await recordActivity(project!, "activity", `PR #${result.pr.number}: feedback arrived, but no fix run starts: ${result.reason}`);
  } else if (result.outcome === "no_profile") {
    await recordActivity(project!, "activity", `PR #${result.pr.number}: feedback arrived, but no executor agent profile is configured`);
  }
  return result.outcome;
}
