import { getEnv } from "@/lib/env";
import { queuePayloads } from "@/lib/queues/names";
import { getQueue } from "@/lib/queues/queues";

export const tickSchedulerId = (projectId: string) => `tick-${projectId}`;

/**
 * An immediate tick of a project ("nudge"). Deduplicated per project with
 * keepLastIfActive: a burst coalesces into at most one active and one waiting tick.
 */
export async function enqueueTick(projectId: string, reason: string, delayMs = 0): Promise<void> {
  if (getEnv().NUDGES === "off") return;
  const data = queuePayloads.tick.parse({ projectId, reason: reason.slice(0, 200) });
  await getQueue("tick").add("nudge", data, {
    deduplication: { id: projectId, keepLastIfActive: true },
    delay: delayMs,
  });
}

/** The periodic safety-net tick; created, changed and removed with the project. */
export async function upsertTickScheduler(projectId: string, everyMs: number): Promise<void> {
  if (getEnv().TICK_SCHEDULES === "off") return;
  await getQueue("tick").upsertJobScheduler(
    tickSchedulerId(projectId),
    { every: everyMs },
    { name: "scheduled", data: { projectId, reason: "schedule" } },
  );
}

export async function removeTickScheduler(projectId: string): Promise<void> {
  await getQueue("tick").removeJobScheduler(tickSchedulerId(projectId));
}

/** One job per run; the job id is the run id, so a repeated enqueue is a no-op. */
export async function enqueueSpawn(runId: string): Promise<void> {
  await getQueue("spawn").add("spawn", queuePayloads.spawn.parse({ runId }), { jobId: runId });
}

export async function enqueueMerge(runId: string): Promise<void> {
  await getQueue("merge").add("merge", queuePayloads.merge.parse({ runId }), {
    jobId: `merge-${runId}`,
    attempts: 5,
    backoff: { type: "exponential", delay: 2000 },
  });
}

export async function enqueueGithub(deliveryId: string): Promise<void> {
  await getQueue("github").add("delivery", queuePayloads.github.parse({ deliveryId }), {
    jobId: `gh-${deliveryId}`,
    attempts: 8,
    backoff: { type: "exponential", delay: 5000 },
  });
}
