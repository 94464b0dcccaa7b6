import { queuePayloads } from "@/lib/queues/names";
import { getQueue } from "@/lib/queues/queues";

// GitHub does not redeliver by itself, so a stored delivery gets several tries of its own.
const deliveryRetries = { attempts: 8, backoff: { type: "exponential", delay: 5000 } } as const;

/** One job per webhook delivery; the job id is the delivery id, so GitHub's redelivery is a no-op. */
export async function enqueueGithub(deliveryId: string): Promise<void> {
  await getQueue("github").add("delivery", queuePayloads.github.parse({ deliveryId }), { jobId: `gh-${deliveryId}`, ...deliveryRetries });
}

/**
 * Deliveries stored together, as one job (one Redis round of commands and one job for the
 * worker instead of one each); `key` names the batch (its first work order) so a repeat is a
 * no-op. Each delivery's row claim keeps it processed once whatever else sends it.
 */
export async function enqueueGithubBatch(key: string, deliveryIds: string[]): Promise<void> {
  await getQueue("github").add("deliveries", queuePayloads.github.parse({ deliveryIds }), { jobId: `ghb-${key}`, ...deliveryRetries });
}

/** A stored delivery whose job was lost or gave up; the row's claim keeps processing at most once. */
export async function requeueGithubDelivery(deliveryId: string): Promise<void> {
  await getQueue("github").add("delivery", queuePayloads.github.parse({ deliveryId }), {
    deduplication: { id: `gh-retry-${deliveryId}` }, ...deliveryRetries,
  });
}

/**
 * Seed 000 runs the PR check every `checkFrequency` ticks. The tick only enqueues it (no
 * query, no GitHub call in the tick): the github worker does the slow part.
 */
export async function enqueuePullRequestPoll(project: { id: string; repoKind: string }, settings: { prCheckFrequency: number }, tickCount: number): Promise<void> {
  if (project.repoKind !== "github" || tickCount % Math.max(1, settings.prCheckFrequency) !== 0) return;
  await getQueue("github").add("poll", queuePayloads.github.parse({ pollProjectId: project.id }), {
    deduplication: { id: `poll-${project.id}` },
  });
}

/** A person's decision can unblock a pull request: look at it again now rather than at the next event. */
export async function enqueuePullRequestRecheck(pullRequestId: string): Promise<void> {
  await getQueue("github").add("recheck", queuePayloads.github.parse({ recheckPullRequestId: pullRequestId }), {
    deduplication: { id: `recheck-${pullRequestId}` },
  });
}

/** One job per stored Slack event (the row id is the job id): a relayed repeat is a no-op. */
export async function enqueueSlack(deliveryRowId: string): Promise<void> {
  await getQueue("slack").add("event", queuePayloads.slack.parse({ deliveryRowId }), { jobId: `slack-${deliveryRowId}`, ...deliveryRetries });
}
