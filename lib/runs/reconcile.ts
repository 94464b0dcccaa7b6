import { getDb } from "@/lib/db";
import { recordAudit, SYSTEM } from "@/lib/audit/record";
import { enqueueMerge, enqueueSpawn, enqueueTick } from "@/lib/queues";
import { recordActivity } from "@/lib/loop/activity";
import { clearSpawnCooldown, failPromptAttempt } from "@/lib/runs/finish-prompt";

// A queued run whose spawn job vanished (e.g. Redis lost it) is enqueued again; the job
// id is the run id, so a job that still exists is not duplicated.
const REQUEUE_AFTER_MS = 15_000;

interface LiveRun { id: string; status: string; promptId: string | null; leaseExpiresAt: Date | null; queuedAt: Date }

/**
 * Seed 000's agent-liveness check with leases: a run whose lease expired is lost, its
 * prompt goes back to pending with the attempt counted, its slot and cooldown freed.
 */
export async function reconcileRuns(project: { id: string; teamId: string }, runs: LiveRun[], now: Date): Promise<number> {
  let lost = 0;
  for (const run of runs) {
    if (run.status === "queued") {
      if (now.getTime() - run.queuedAt.getTime() > REQUEUE_AFTER_MS) await enqueueSpawn(run.id);
      continue;
    }
    if (!run.leaseExpiresAt || run.leaseExpiresAt > now) continue;
    const marked = await getDb().$transaction(async (tx) => {
      const n = await tx.run.updateMany({
        where: { id: run.id, status: { in: ["starting", "running"] }, leaseExpiresAt: { lt: now } },
        data: { status: "lost", finishedAt: now, error: "lease expired: the worker running this agent stopped renewing it" },
      });
      if (n.count !== 1) return false;
      if (run.promptId) await failPromptAttempt(tx, run.promptId, "The run was lost (its worker died or was cut off).");
      await clearSpawnCooldown(tx, project.id);
      await recordAudit({ teamId: project.teamId, by: SYSTEM, action: "run.lost", target: { type: "run", id: run.id }, before: { status: run.status }, after: { status: "lost" } }, tx);
      await tx.apiToken.updateMany({ where: { runId: run.id, revokedAt: null }, data: { revokedAt: now } });
      return true;
    });
    if (!marked) continue;
    lost++;
    await recordActivity(project, "taskFailed", `Run ${run.id} lost: lease expired; prompt returned to the queue`, {
      runId: run.id, promptId: run.promptId ?? undefined,
    });
  }
  if (lost > 0) await enqueueTick(project.id, "runs lost");
  return lost;
}

/** Finished work whose merge job vanished (Redis lost it) is queued again; the job id dedups. */
export async function requeueStaleMerges(awaitingMerge: ReadonlyArray<{ id: string; finishedAt: Date | null }>, now: Date): Promise<void> {
  for (const run of awaitingMerge) {
    if (run.finishedAt && now.getTime() - run.finishedAt.getTime() > REQUEUE_AFTER_MS) await enqueueMerge(run.id);
  }
}
