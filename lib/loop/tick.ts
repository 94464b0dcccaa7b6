import { getDb, getPool, prepared } from "@/lib/db";
import { workerId } from "@/lib/worker-id";
import { announce } from "@/lib/events/publish";
import { enqueuePullRequestPoll, enqueueSpawn, enqueueTick, publishOutbox, recordOutbox } from "@/lib/queues";
import { claimPromptForRun, createPromptlessRun, getClaimProfile, PLANNING_KINDS } from "@/lib/runs/claim";
import { releaseLostPins } from "@/lib/runs/pins";
import { campaignStep } from "@/lib/loop/campaign";
import { plannerStateAfterSnapshot } from "@/lib/loop/backoff";
import { checkBranch } from "@/lib/loop/branch";
import { changeLoopMode } from "@/lib/loop/controls";
import * as say from "@/lib/loop/messages";
import { SYSTEM } from "@/lib/audit/record";
import { decide } from "@/lib/loop/decide";
import { releaseTickLock, TICK_LOCK_MS } from "@/lib/loop/lock";
import { loadTickSnapshot, lockAndLoad, tickSkipReason, type TickSnapshot } from "@/lib/loop/load";
import { announceActivity, recordActivity } from "@/lib/activity/record";
import { QUEUE_RAN_DRY } from "@/lib/activity/change";
import { applyBudgetToLoop, pauseForBudget } from "@/lib/loop/budget";
import { BudgetRefusal } from "@/lib/budgets/reserve";
import { promptSnapshot } from "@/lib/loop/snapshot";
import { applyTickPeriod, backoffAfterTick } from "@/lib/loop/idle-backoff";
import { syncPromptFiles } from "@/lib/prompts/sync";
import { writeBackPromptStatuses } from "@/lib/prompts/write-back";
import { wakeRunners } from "@/lib/runners/wake";
import type { Decision, PromptView } from "@/lib/loop/types";
import type { PromptPriority } from "@/lib/prompts/schema";


export type TickResult = { skipped: "locked" | "inactive" } | { skipped: false; decision: Decision };

/**
 * One tick of a project: seed 000's parallel checks, then the prompt-loop decision. Lost
 * runs and vanished jobs are found by the fleet-wide sweeper (lib/runs/reconcile.ts), so
 * they do not wait for this project's tick.
 */
export async function runTick(projectId: string, now = () => new Date(), opts: { scheduled?: boolean } = {}): Promise<TickResult> {
  const me = workerId();
  let snap = await lockAndLoad(projectId, me, TICK_LOCK_MS);
  if (!snap) return { skipped: await tickSkipReason(projectId) };
  let finished = false;
  try {
    const [branch, imported] = await Promise.all([checkBranch(snap.project), syncPromptFiles(snap.project)]);
    if (branch || imported > 0) snap = (await loadTickSnapshot(projectId))!;
    if (snap.prompts.some((p) => p.pinLost)) await handOverLostPins(snap);
    if (snap.budgeted) snap.loopState.mode = await applyBudgetToLoop(snap.project, snap.loopState, now());
    // Seed 002: an open campaign's architect, reflector and breaker come first; a plan it applied
    // (or cancelled) changes the queue, so the prompt loop then decides on a fresh snapshot.
    let held: string | null = null;
    let decision: Decision;
    for (let pass = 0; ; pass++) {
      const doneBefore = new Set(snap.prompts.filter((p) => p.status === "done").map((p) => p.id));
      if (snap.campaigning && snap.loopState.mode === "running") {
        held = await campaignStep({
          project: snap.project, profileId: snap.settings.plannerProfileId ?? snap.settings.executorProfileId, limits: spawnLimits(snap.settings), now: now(),
          backoffBaseMs: snap.settings.spawnCooldownMs,
        });
        snap = (await loadTickSnapshot(projectId))!;
      }
      decision = held ? { kind: "blocked_planner", message: held } : decide(toDecisionInput(snap), now());
      // A task that landed after the campaign step counted the tasks is seen by the decision but
      // not by the step: the campaign's last one reads as "all done" (the loop would stop under the
      // open campaign, and a stopped loop runs no step again), another one as a free slot past a
      // milestone whose drift check has not started. Step once more on what the decision sees.
      const landed = snap.prompts.some((p) => p.status === "done" && !doneBefore.has(p.id));
      if (pass > 0 || !snap.campaigning || snap.loopState.mode !== "running" || (decision.kind !== "all_done" && !landed)) break;
    }
    const decided = snap;
    // The decision does not read the prompt files, so their statuses are written after the spawn
    // (still under the lock: one writer per file); the pull-request check is only a job to add.
    await applyDecision(decided, decision, now(), me, opts.scheduled ?? false, () => writeBackPromptStatuses(decided.project, decided.prompts));
    finished = true;
    await enqueuePullRequestPoll(decided.project, decided.settings, decided.loopState.tickCount);
    return { skipped: false, decision };
  } finally {
    if (!finished) await releaseTickLock(projectId, me);
  }
}

/** Prompts pinned to an agent that is gone become ordinary work (lib/runs/pins.ts); their queued runs move on now. */
async function handOverLostPins(snap: TickSnapshot) {
  const { released, localRunIds, poolRuns } = await releaseLostPins(snap.project.id, snap.settings.useRunners);
  for (const runId of localRunIds) await enqueueSpawn(runId);
  if (poolRuns) await wakeRunners(snap.project.teamId);
  for (const p of released) {
    await recordActivity(snap.project, "activity", `#${p.number} ${p.title}: ${p.agentName} is gone, so it is no longer pinned to it; any agent of the project takes it`, { promptId: p.promptId });
  }
}

function toDecisionInput(snap: TickSnapshot) {
  const livePromptIds = new Set(snap.runs.map((r) => r.promptId).filter(Boolean));
  const mergingPromptIds = new Set(snap.merging.map((m) => m.promptId).filter(Boolean));
  const prompts: PromptView[] = snap.prompts.map((p) => ({
    id: p.id,
    number: p.number,
    status: p.status,
    priority: p.priority as PromptPriority,
    dependencies: p.dependencies,
    approved: p.approval === "not_required" || p.approval === "approved",
    live: livePromptIds.has(p.id),
    merging: mergingPromptIds.has(p.id),
    retryAt: p.retryAt,
  }));
  const { loopState: ls, settings } = snap;
  const pending = prompts.filter((p) => p.status === "pending").length;
  const planner = plannerStateAfterSnapshot(
    { unproductiveSpawns: ls.emergentSpawnCount, lastPromptCount: ls.emergentLastPromptCount, lastSpawnAt: ls.plannerLastSpawnAt },
    ls.lastPendingCount,
    pending,
  );
  return {
    mode: ls.mode,
    parallelEnabled: settings.parallelEnabled,
    maxParallel: settings.maxParallel,
    spawnCooldownMs: settings.spawnCooldownMs,
    lastSpawnAt: ls.lastSpawnAt,
    plannerEnabled: settings.plannerEnabled && Boolean(settings.plannerProfileId),
    plannerRunning: snap.runs.some((r) => (PLANNING_KINDS as readonly string[]).includes(r.kind)),
    executorsRunning: snap.runs.filter((r) => r.kind === "executor").length,
    mergesPending: snap.merging.length,
    pullsAwaitingMerge: snap.openPulls,
    prompts,
    planner,
  };
}

// The claim re-checks decide()'s slot rules under a row lock: with Parallel off a pending merge holds
// the one slot; the cooldown is per slot, so with Parallel on it never holds back another free slot.
const spawnLimits = (s: { parallelEnabled: boolean; maxParallel: number; spawnCooldownMs: number }) => ({
  maxExecutors: s.parallelEnabled ? s.maxParallel : 1,
  cooldownMs: s.parallelEnabled ? 0 : s.spawnCooldownMs,
  mergesHoldSlot: !s.parallelEnabled,
});

async function applyDecision(snap: TickSnapshot, decision: Decision, now: Date, me: string, scheduled: boolean, beforeUnlock: () => Promise<unknown>) {
  const { project, loopState: ls, settings } = snap;
  const db = getDb();
  const snapshot = promptSnapshot(snap.prompts);
  const input = toDecisionInput(snap);
  // Log entries the tick's last statement writes, announced after it: past a spawn, one round trip.
  const logged: Logged[] = [];

  if (decision.kind === "spawn_executor") {
    const profile = settings.executorProfileId ? await getClaimProfile(settings.executorProfileId) : null;
    if (!profile) {
      decision = { ...decision, message: "No executor agent profile configured: choose one in the project settings" };
    } else {
      const claimed = await claimPromptForRun({ projectId: project.id, promptId: decision.promptId, profile, routing: settings.modelRouting, now, limits: spawnLimits(settings), remote: settings.useRunners })
        .catch(refusedByBudget(project));
      if (typeof claimed === "string") {
        decision = { ...decision, message: claimed };
      } else if (claimed) {
        // Remote with the project's setting, or because the prompt is pinned to a runner agent.
        const remote = claimed.run.remote;
        // A remote run waits in the pool; the wake-up answers a runner's held poll at once.
        if (remote) await wakeRunners(project.teamId);
        else await enqueueSpawn(claimed.run.id);
        logged.push(["taskAssigned", `#${claimed.prompt.number} ${claimed.prompt.title}: run ${claimed.run.id} queued${remote ? " for a remote runner" : ""}`, {
          runId: claimed.run.id, promptId: claimed.prompt.id,
        }]);
        // Seed 000 spawns one agent per tick; a burst fills the other free slots tick after tick
        // at once, not one per safety-net period.
        if (slotsLeftAfterSpawn(input) > 0 && readyBesides(input.prompts, decision.promptId)) await enqueueTick(project.id, BURST_REASON);
      }
    }
  } else if (decision.kind === "spawn_planner") {
    const profile = await db.agentProfile.findUnique({ where: { id: settings.plannerProfileId! } });
    const run = profile && await createPromptlessRun({
        projectId: project.id, kind: "planner", profile, now, limits: spawnLimits(settings),
        loopState: {
          emergentSpawnCount: decision.planner.unproductiveSpawns,
          emergentLastPromptCount: decision.planner.lastPromptCount,
          plannerLastSpawnAt: decision.planner.lastSpawnAt,
        },
      }).catch(refusedByBudget(project));
    if (typeof run === "string") {
      decision = { ...decision, message: run };
    } else if (run) {
      await enqueueSpawn(run.id);
      logged.push(["taskAssigned", `Planner run ${run.id} queued`, { runId: run.id }]);
    }
  } else if (decision.kind === "all_done" && snap.prompts.length > 0) {
    // Seed 003: no tasks left and no agent running → the autopilot exits (Start runs it again).
    // A queue that never had a prompt is waiting for its first one, not done: it keeps running.
    await announce(project.teamId, { type: "allDone", projectId: project.id });
    await changeLoopMode(project, "stop", SYSTEM, say.allDoneStopMessage);
    // Marked as stopped for an empty queue: new work starts it again (restartDryLoop); a person's Stop stays.
    await db.loopState.updateMany({ where: { projectId: project.id, mode: "stopped" }, data: { pauseReason: QUEUE_RAN_DRY } });
    // A prompt added while this tick decided was not in its snapshot, nor did it see the mark.
    // A paused campaign's task is not new work: the snapshot leaves it out, and so does this check.
    if (await db.prompt.count({ where: { projectId: project.id, planningKey: project.planningKey, status: "pending", OR: [{ campaignId: null }, { campaign: { paused: false } }] } })) {
      await changeLoopMode(project, "start", SYSTEM, "Loop started again: a prompt arrived as the queue ran dry");
    }
  } else if (decision.kind === "idle" && ls.mode === "stopping" && snap.runs.length === 0) {
    // The periodic tick goes with the loop: a stopped project costs nothing.
    const outbox = await db.$transaction(async (tx) => {
      await tx.loopState.update({ where: { projectId: project.id }, data: { mode: "stopped" } });
      return recordOutbox(tx, [{ kind: "schedule", projectId: project.id }]);
    });
    await recordActivity(project, "stopped", "Loop stopped: all running agents finished");
    await publishOutbox(outbox);
  }

  if (decision.message !== ls.lastStatus) logged.push(["loopStatus", decision.message, {}]);
  await beforeUnlock();
  // The tick's last write also releases its lock (one statement: the idle path is hot).
  const spawnCount = decision.kind === "spawn_planner" ? null : input.planner.unproductiveSpawns;
  const backoff = backoffAfterTick(snap, decision, scheduled);
  await getPool().query(prepared(
    `WITH logged AS (
      INSERT INTO "ActivityEvent" ("projectId", type, message, data, "createdAt")
      SELECT $1, e.entry->>0, e.entry->>1, e.entry->2, $10::timestamp FROM jsonb_array_elements($9::jsonb) WITH ORDINALITY AS e(entry, n) ORDER BY e.n
    )
    UPDATE "LoopState" SET "tickLockedUntil" = NULL, "tickLockedBy" = NULL, "tickCount" = "tickCount" + 1,
      "lastTickAt" = $3, "snapshotHash" = $4, "lastPendingCount" = $5, "lastStatus" = $6,
      "emergentSpawnCount" = COALESCE($7::int, "emergentSpawnCount"), "tickBackoff" = $8, "updatedAt" = now()
    WHERE "projectId" = $1 AND "tickLockedBy" = $2`,
    [project.id, me, now, snapshot.hash, snapshot.counts.pending, decision.message, spawnCount, backoff, JSON.stringify(logged), new Date().toISOString()],
  ));
  // Sent together, in this order (one connection keeps it).
  await Promise.all([
    ...(snapshot.hash !== ls.snapshotHash ? [announce(project.teamId, { type: "promptsChange", projectId: project.id })] : []),
    ...logged.map((entry) => announceActivity(project, ...entry)),
  ]);
  // An idle project's safety net backs off; any event (a nudge) brings it back to its interval.
  if (backoff !== ls.tickBackoff) await applyTickPeriod(project.id);
}

export const BURST_REASON = "another slot is free and a prompt waits";

type Logged = Parameters<typeof announceActivity> extends [unknown, ...infer Rest] ? Rest : never;

const slotsLeftAfterSpawn = (input: ReturnType<typeof toDecisionInput>) =>
  (input.parallelEnabled ? input.maxParallel : 1) - input.executorsRunning - 1;
const readyBesides = (prompts: PromptView[], spawned: string) => prompts.some((p) => p.id !== spawned && p.status === "pending" && !p.live);

// A spent budget pauses the loop; one held by running runs only makes this spawn wait for
// them. Either way the refusal becomes the loop's status.
const refusedByBudget = (project: TickSnapshot["project"]) => async (err: unknown): Promise<string> => {
  if (!(err instanceof BudgetRefusal)) throw err;
  if (err.budgetSpent) await pauseForBudget(project, err.message);
  return err.message;
};
