import { getDb, type CampaignModel as Campaign, type RunModel as Run } from "@/lib/db";
import { createPromptlessRun, type SpawnLimits } from "@/lib/runs/claim";
import { enqueueSpawn } from "@/lib/queues";
import { recordActivity } from "@/lib/activity/record";
import { announce } from "@/lib/events/publish";
import { parsePlan } from "@/lib/campaigns/plan";
import { parseVerdict, tail } from "@/lib/campaigns/inputs";
import {
  addEvent, applyPlan, ARCHITECT_ATTEMPTS, changePhase, countTasks, crossedMilestones, DRIFT_CHECK_ATTEMPTS, OPEN_PHASES, TASK_ATTEMPTS,
} from "@/lib/campaigns/state";
import { autoReplan, retryAt } from "@/lib/loop/campaign-replan";
import { notifyCampaign } from "@/lib/campaigns/notify";
import { mirrorCampaignState } from "@/lib/campaigns/mirror";
import { BudgetRefusal } from "@/lib/budgets/reserve";

type Project = { id: string; teamId: string };
/** `backoffBaseMs`: the project's spawn cooldown, the base of the re-plan backoff (as of the planner's). */
interface StepInput { project: Project; profileId: string | null; limits: SpawnLimits; now: Date; backoffBaseMs: number }

/**
 * Seed 002's loop, one step per open campaign of the project, run by the tick before the prompt
 * loop decides: answers of finished architect and reflector runs are applied once, then
 * PLANNING starts an architect, EXECUTING checks the breaker, the milestones and completion.
 * Each step ends by mirroring the campaign's state to git.
 * Returns what holds the prompt loop back (a campaign's architect or reflector), or null.
 */
export async function campaignStep(input: StepInput): Promise<string | null> {
  const db = getDb();
  const campaigns = await db.campaign.findMany({ where: { projectId: input.project.id, phase: { in: OPEN_PHASES }, paused: false }, orderBy: { createdAt: "asc" } });
  let holding: string | null = null;
  for (const c of campaigns) {
    const campaign = await handleAnswers(input, c);
    if (OPEN_PHASES.includes(campaign.phase)) {
      const held = campaign.phase === "planning" ? await plan(input, campaign) : await execute(input, campaign);
      holding ??= held;
    }
    await mirrorCampaignState(c.id);
  }
  return holding;
}

async function handleAnswers(input: StepInput, campaign: Campaign): Promise<Campaign> {
  const db = getDb();
  const ended = await db.run.findMany({
    where: { campaignId: campaign.id, kind: { in: ["architect", "reflector"] }, status: { in: ["succeeded", "failed", "timed_out", "lost", "cancelled"] } },
    orderBy: { finishedAt: "asc" },
  });
  // A run's answer is handled once: its event (unique by run id) marks it.
  const handled = new Set((await db.campaignEvent.findMany({ where: { runId: { in: ended.map((r) => r.id) } }, select: { runId: true } })).map((e) => e.runId));
  const finished = ended.filter((r) => !handled.has(r.id));
  for (const run of finished) await handleAnswer(input, campaign.id, run);
  return finished.length ? db.campaign.findUniqueOrThrow({ where: { id: campaign.id } }) : campaign;
}

async function handleAnswer(input: StepInput, campaignId: string, run: Run) {
  const clock = { now: input.now, baseMs: input.backoffBaseMs };
  const notices = await getDb().$transaction(async (tx) => {
    const c = await tx.campaign.findUniqueOrThrow({ where: { id: campaignId } });
    if (run.kind === "architect") {
      const parsed = run.status === "succeeded" ? parsePlan(run.summary ?? "") : null;
      if (parsed?.ok && c.phase === "planning") {
        await applyPlan(tx, c, parsed.plan, run.id);
        return [`Campaign "${c.title}": plan ${c.planVersion + 1} with ${parsed.plan.tasks.length} tasks; executing`];
      }
      // A plan that arrives after the campaign moved on (it executes a plan already) is kept out of it.
      if (parsed?.ok) {
        await addEvent(tx, c.id, "plan_ignored", `A plan arrived while the campaign was ${c.phase}; it was not applied`, run.id);
        return [];
      }
      // An architect that failed (a plan that did not validate fails its run) is retried, up to the breaker.
      const failures = c.failures + 1;
      // A run that ended well but answered no plan (its error is empty) fails for what its answer lacks.
      const why = run.error ?? (parsed && !parsed.ok ? parsed.errors[0] : run.status);
      await addEvent(tx, c.id, "architect_failed", `Architect run failed: ${why}`, run.id);
      if (failures >= ARCHITECT_ATTEMPTS && c.phase === "planning") {
        await changePhase(tx, c.id, "failed", { failures });
        await addEvent(tx, c.id, "failed", `The architect failed ${failures} times in a row`);
        return [`Campaign "${c.title}" failed: the architect failed ${failures} times in a row`];
      }
      await tx.campaign.update({ where: { id: c.id }, data: { failures, planAfter: retryAt(input.now, input.backoffBaseMs, failures) } });
      return [];
    }
    const verdict = run.status === "succeeded" ? parseVerdict(run.summary) : null;
    if (!verdict) {
      // Seed 002's drift check is mandatory: a run that failed, timed out or was lost runs again
      // (its milestone is taken back, so the step queues it at once and holds the loop meanwhile),
      // up to DRIFT_CHECK_ATTEMPTS runs; a person's cancel skips it, and a check of a plan that is
      // gone (a person re-planned while it ran) is owed no more.
      const owed = c.phase === "executing" && run.status !== "cancelled" && c.milestones.length > 0;
      const failed = c.driftFailures + 1;
      const again = owed && failed < DRIFT_CHECK_ATTEMPTS;
      const last = Math.max(...c.milestones);
      const retried = again ? { driftFailures: failed, milestones: c.milestones.filter((m) => m !== last) } : { driftFailures: 0 };
      await tx.campaign.update({ where: { id: c.id }, data: retried });
      const outcome = again ? `; it runs again (${failed} of ${DRIFT_CHECK_ATTEMPTS} runs failed)`
        : owed ? `; given up after ${failed} failed runs, the work goes on` : "";
      // The run's error may end a sentence of its own ("… Exiting with code 1."): the outcome goes on it.
      await addEvent(tx, c.id, "reflector_failed", `Drift check did not finish: ${(run.error ?? run.status).replace(/\.$/, "")}${outcome}`, run.id);
      return [];
    }
    if (c.driftFailures > 0) await tx.campaign.update({ where: { id: c.id }, data: { driftFailures: 0 } });
    if (verdict.aligned) {
      await addEvent(tx, c.id, "aligned", `Drift check: aligned${verdict.reason ? ` (${verdict.reason})` : ""}`, run.id);
      return [];
    }
    // A person re-planned while the check ran: the plan it judged is gone, so is its drift.
    if (c.phase !== "executing") {
      await addEvent(tx, c.id, "verdict_ignored", `A drift verdict arrived while the campaign was ${c.phase}; it was not acted on: ${verdict.reason}`, run.id);
      return [];
    }
    const reason = `DRIFT DETECTED: ${verdict.reason}`;
    const replanned = await autoReplan(tx, c, reason, "drift", clock, run.id);
    if (replanned.failed) return [`Campaign "${c.title}" failed: ${replanned.message}`];
    return [`Campaign "${c.title}" drifted from its goal; re-planning. ${reason}`];
  });
  for (const message of notices) await notifyCampaign(input.project, campaignId, message);
  // Quieter answers (a failed architect and its new backoff, a verdict of aligned) change the page too.
  if (notices.length === 0) await announce(input.project.teamId, { type: "campaignChange", projectId: input.project.id, campaignId });
}

async function plan(input: StepInput, campaign: Campaign): Promise<string | null> {
  const live = await liveRun(campaign.id, "architect");
  if (live) return `Campaign "${campaign.title}": the architect is planning`;
  // Held, not idle: an empty queue must not read as "all done" while the campaign waits to re-plan.
  if (campaign.planAfter && campaign.planAfter > input.now) {
    return `Campaign "${campaign.title}": re-planning backs off until ${campaign.planAfter.toISOString()}`;
  }
  const spawned = await spawn(input, campaign, "architect");
  if (!spawned) return null;
  return "held" in spawned ? `Campaign "${campaign.title}": the architect ${spawned.held}` : `Campaign "${campaign.title}": architect run queued`;
}

async function execute(input: StepInput, campaign: Campaign): Promise<string | null> {
  const db = getDb();
  const failed = await db.prompt.findFirst({ where: { campaignId: campaign.id, campaignPlan: campaign.planVersion, status: "failed" }, orderBy: { completedAt: "asc" } });
  if (failed) {
    // The circuit breaker: a task that failed all its attempts goes back to the architect with its log tail.
    const reason = `Task ${failed.taskId} failed after ${TASK_ATTEMPTS} attempts:\n${tail(failed.failureLog ?? "(no log)")}`;
    const replanned = await db.$transaction(async (tx) => {
      await tx.campaign.update({ where: { id: campaign.id }, data: { tasksFailed: { increment: 1 } } });
      return autoReplan(tx, campaign, reason, "replan", { now: input.now, baseMs: input.backoffBaseMs });
    });
    if (replanned.failed) {
      await notifyCampaign(input.project, campaign.id, `Campaign "${campaign.title}" failed: ${replanned.message}`);
      return null;
    }
    await notifyCampaign(input.project, campaign.id, `Campaign "${campaign.title}": task ${failed.taskId} failed ${TASK_ATTEMPTS} times; re-planning`);
    // The architect starts in this tick (or the backoff holds the loop): an empty queue must not read as "all done".
    return plan(input, await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } }));
  }
  const counts = await countTasks(db, campaign);
  if (counts.done !== campaign.tasksCompleted) await db.campaign.update({ where: { id: campaign.id }, data: { tasksCompleted: counts.done, tasksTotal: counts.total } });
  if (await liveRun(campaign.id, "reflector")) return `Campaign "${campaign.title}": drift check running`;
  const crossed = crossedMilestones(counts.done, counts.total, campaign.milestones);
  if (crossed.length > 0 && counts.done < counts.total) {
    const milestone = crossed[crossed.length - 1];
    const spawned = await spawn(input, campaign, "reflector");
    if (!spawned) return null;
    // Refused (the cooldown, a busy slot, the budget): the check is mandatory before the next task,
    // so the loop is held; it must not hand the slot to a task when its own clock reads a moment later.
    if ("held" in spawned) return `Campaign "${campaign.title}": the drift check at ${milestone} % ${spawned.held}`;
    await db.$transaction(async (tx) => {
      await tx.campaign.update({ where: { id: campaign.id }, data: { milestones: [...campaign.milestones, ...crossed] } });
      const again = campaign.driftFailures > 0 ? ` again (${campaign.driftFailures} failed)` : "";
      await addEvent(tx, campaign.id, "milestone", `Milestone ${milestone} %: ${counts.done} of ${counts.total} tasks done; drift check queued${again}`);
    });
    return `Campaign "${campaign.title}": drift check at ${milestone} %`;
  }
  if (counts.pending === 0 && counts.running === 0) {
    await db.$transaction(async (tx) => {
      await changePhase(tx, campaign.id, "completed", { tasksCompleted: counts.done });
      await addEvent(tx, campaign.id, "completed", "Campaign complete!");
    });
    await notifyCampaign(input.project, campaign.id, `Campaign "${campaign.title}": Campaign complete!`);
  }
  return null;
}

const liveRun = (campaignId: string, kind: "architect" | "reflector") =>
  getDb().run.findFirst({ where: { campaignId, kind, status: { in: ["queued", "starting", "running"] } }, select: { id: true } });

/**
 * The architect's or reflector's run, queued; `held` says why the limits (the cooldown, a busy
 * slot) or the budget refuse it for now; null when the project has no profile to run it with.
 */
async function spawn(input: StepInput, campaign: Campaign, kind: "architect" | "reflector"): Promise<{ run: Run } | { held: string } | null> {
  const profile = input.profileId ? await getDb().agentProfile.findUnique({ where: { id: input.profileId } }) : null;
  if (!profile) return null;
  let run: Run | null;
  try {
    run = await createPromptlessRun({ projectId: input.project.id, kind, profile, now: input.now, limits: input.limits, loopState: {}, campaignId: campaign.id });
  } catch (err) {
    // A spent budget pauses the loop at the next tick's start; one held by running runs waits for them.
    if (err instanceof BudgetRefusal) return { held: `is held: ${err.message}` };
    throw err;
  }
  if (!run) return { held: "waits for a free slot" };
  await enqueueSpawn(run.id);
  await recordActivity(input.project, "taskAssigned", `Campaign "${campaign.title}": ${kind} run ${run.id} queued`, { runId: run.id });
  await announce(input.project.teamId, { type: "campaignChange", projectId: input.project.id, runId: run.id });
  return { run };
}
