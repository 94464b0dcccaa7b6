import { getDb } from "@/lib/db";
import { requeueGithubDelivery } from "@/lib/queues";
import { checkCiStatus } from "@/lib/github/checks";
import { mergeIfAllowed } from "@/lib/github/merge-policy";
import { applyPullState } from "@/lib/github/pull-state";
import { remoteAuth } from "@/lib/github/repo";
import { checkReviewFeedback } from "@/lib/github/review-check";
import { RECLAIM_AFTER_MS } from "@/lib/github/deliveries";

// Webhooks count as configured while deliveries keep arriving; polling is the fallback.
const WEBHOOKS_LIVE_MS = 10 * 60_000;
const STALE_DELIVERY_MS = 30_000;

/** Review feedback, CI, then the merge policy, for one open pull request. */
export async function recheckPullRequest(pullRequestId: string): Promise<void> {
  await checkReviewFeedback(pullRequestId);
  const ci = await checkCiStatus(pullRequestId);
  if (ci?.verdict.state === "success") await mergeIfAllowed(pullRequestId);
}

export async function pollPullRequests(projectId: string, now = new Date()): Promise<{ polled: number }> {
  const db = getDb();
  // Deliveries stored while Redis was away, or whose job gave up, are queued again; so are
  // deliveries a worker claimed and never settled (it died, or its job stalled and the retry
  // found the claim still young): the claim takes them over once it is RECLAIM_AFTER_MS old.
  const stale = await db.webhookDelivery.findMany({
    where: { projectId, OR: [
      { status: "received", receivedAt: { lt: new Date(now.getTime() - STALE_DELIVERY_MS) } },
      { status: "processing", processedAt: { lt: new Date(now.getTime() - RECLAIM_AFTER_MS) } },
    ] },
    select: { deliveryId: true }, take: 100,
  });
  for (const d of stale) await requeueGithubDelivery(d.deliveryId);
  const recent = await db.webhookDelivery.count({ where: { projectId, receivedAt: { gt: new Date(now.getTime() - WEBHOOKS_LIVE_MS) } } });
  if (recent > 0) return { polled: 0 };
  const project = await db.project.findUnique({ where: { id: projectId } });
  const open = await db.pullRequest.findMany({ where: { projectId, state: "open" } });
  if (!project || open.length === 0) return { polled: 0 };
  const { client, owner, repo } = await remoteAuth(project);
  for (const pr of open) {
    const { data } = await client.rest.pulls.get({ owner, repo, pull_number: pr.number });
    if ((await applyPullState(projectId, data)) !== "open") continue;
    await recheckPullRequest(pr.id);
  }
  return { polled: open.length };
}
