import { getEnv } from "@/lib/env";
import { queuePayloads, type QueueName } from "@/lib/queues/names";
import { getQueue } from "@/lib/queues/queues";

export const tickSchedulerId = (projectId: string) => `tick-${projectId}`;

/**
 * An immediate tick of a project ("nudge"). Deduplicated per project with
 * keepLastIfActive: a burst coalesces into at most one active and one waiting tick.
 * `retryInMs`: a nudge that found another tick of the project holding its lock comes back that
 * much later, deduplicated on its own: a delayed job under the project's id would swallow every
 * nudge sent until it runs (a burst's next tick among them).
 */
export async function enqueueTick(projectId: string, reason: string, opts: { retryInMs?: number } = {}): Promise<void> {
  if (getEnv().NUDGES === "off") return;
  const data = queuePayloads.tick.parse({ projectId, reason: reason.slice(0, 200) });
  const retry = opts.retryInMs !== undefined;
  await getQueue("tick").add("nudge", data, {
    deduplication: { id: retry ? retryTickId(projectId) : projectId, keepLastIfActive: true },
    delay: opts.retryInMs ?? 0,
  });
}

/** The deduplication id of a project's nudge that comes back after finding the tick's lock held. */
export const retryTickId = (projectId: string) => `${projectId}-retry`;

/**
 * The periodic safety-net tick; created, changed and removed with the project. A new period
 * starts at once unless `startInMs` says when (a tick that just ran changes its own period).
 */
export async function upsertTickScheduler(projectId: string, everyMs: number, opts: { startInMs?: number } = {}): Promise<void> {
  if (getEnv().TICK_SCHEDULES === "off") return;
  await getQueue("tick").upsertJobScheduler(
    tickSchedulerId(projectId),
    { every: everyMs, ...(opts.startInMs ? { startDate: Date.now() + opts.startInMs } : {}) },
    { name: "scheduled", data: { projectId, reason: "schedule" } },
  );
}

export async function removeTickScheduler(projectId: string): Promise<void> {
  await getQueue("tick").removeJobScheduler(tickSchedulerId(projectId));
}

// A job that failed for good (e.g. Postgres was down for all its attempts) would make a
// re-enqueue under the same id a no-op: the sweeper removes it first, so the work is retried.
async function dropFinishedJob(queue: QueueName, jobId: string): Promise<void> {
  const job = await getQueue(queue).getJob(jobId);
  if (job && ((await job.isFailed()) || (await job.isCompleted()))) await job.remove();
}

/**
 * One job per run; the job id is the run id, so a repeated enqueue is a no-op. Retried
 * while Postgres is away; the claim makes a retry after a start harmless.
 */
export async function enqueueSpawn(runId: string, opts: { again?: boolean } = {}): Promise<void> {
  if (opts.again) await dropFinishedJob("spawn", runId);
  await getQueue("spawn").add("spawn", queuePayloads.spawn.parse({ runId }), {
    jobId: runId,
    attempts: 20,
    backoff: { type: "fixed", delay: 1000 },
  });
}

export async function enqueueMerge(runId: string, opts: { again?: boolean } = {}): Promise<void> {
  if (opts.again) await dropFinishedJob("merge", `merge-${runId}`);
  await getQueue("merge").add("merge", queuePayloads.merge.parse({ runId }), {
    jobId: `merge-${runId}`,
    // A base that moved under the merge, or Postgres away for a while: try again soon.
    attempts: 20,
    backoff: { type: "fixed", delay: 1000 },
  });
}
