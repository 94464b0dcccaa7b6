import { getDb, type Prisma } from "@/lib/db";
import type { GithubClient } from "@/lib/github/client";
import { startFixRun, type FixOutcome } from "@/lib/github/fix-run";
import { remoteAuth } from "@/lib/github/repo";
import { mentions } from "@/lib/github/mention-text";
import { trustedFeedback } from "@/lib/github/feedback-trust";
import {
  freshFeedback, hasNewReview, parsePRUrl, reviewFixPrompt, reviewStateOf, type FeedbackItem, type ReviewState,
} from "@/lib/github/review";

type Json = Record<string, unknown>;
const stateOf = (json: unknown) => ((json ?? {}) as { review?: ReviewState }).review ?? null;

async function listFeedback(client: GithubClient, ref: { owner: string; repo: string; number: number }, since: Date | null): Promise<FeedbackItem[]> {
  const base = { owner: ref.owner, repo: ref.repo, per_page: 100 };
  const sinceIso = since?.toISOString();
  const [comments, inline, reviews] = await Promise.all([
    client.paginate(client.rest.issues.listComments, { ...base, issue_number: ref.number, ...(sinceIso ? { since: sinceIso } : {}) }),
    client.paginate(client.rest.pulls.listReviewComments, { ...base, pull_number: ref.number, ...(sinceIso ? { since: sinceIso } : {}) }),
    client.paginate(client.rest.pulls.listReviews, { ...base, pull_number: ref.number }),
  ]);
  return [
    ...comments.map((c): FeedbackItem => ({ kind: "comment", id: c.id, author: c.user?.login ?? "", body: c.body ?? "", createdAt: c.created_at })),
    ...inline.map((c): FeedbackItem => ({ kind: "inline", id: c.id, author: c.user?.login ?? "", body: c.body, createdAt: c.created_at, path: c.path, line: c.line ?? c.original_line ?? null })),
    ...reviews.filter((r) => r.submitted_at).map((r): FeedbackItem => ({
      kind: "review", id: r.id, author: r.user?.login ?? "", body: r.body ?? "", createdAt: r.submitted_at!, state: r.state,
    })),
  ];
}

/**
 * Seed 000 "Check: PR Review Feedback" for one pull request: parse its URL, read the last review
 * run time, look for feedback naming the detection string, compare the review state, and on a
 * new review start the fix run and record the new state. Only the feedback of writers and
 * installed apps counts (lib/github/feedback-trust.ts). Polling and webhooks both call this;
 * a writer's mention of the bot on the pull request calls it with `mention`.
 */
export interface MentionFeedback {
  login: string;
  author: string;
  /** Commits with the fix run it starts. */
  alongside: (tx: Prisma.TransactionClient, made: { runId: string; promptId: string }) => Promise<void>;
}

export async function checkReviewFeedback(pullRequestId: string, mention?: MentionFeedback): Promise<FixOutcome> {
  const pr = await getDb().pullRequest.findUnique({ where: { id: pullRequestId }, include: { project: { include: { settings: true } } } });
  if (!pr || pr.state !== "open") return "not_open";
  const ref = parsePRUrl(pr.url);
  if (!ref) return "not_open";
  const detection = pr.project.settings!.reviewDetectionString;
  const { client, botLogin } = await remoteAuth(pr.project);
  const all = freshFeedback(await listFeedback(client, ref, pr.lastReviewRunTime), pr.lastReviewRunTime, botLogin);
  const fresh = await trustedFeedback(client, pr.project.githubConnectionId!, ref, all);
  // A writer's @mention of the bot (already checked) is feedback to fix too, like a review the detection string names.
  const current = reviewStateOf(fresh, detection, mention ? (i) => i.author.toLowerCase() === mention.author.toLowerCase() && mentions(i.body, mention.login) : undefined);
  if (!hasNewReview(stateOf(pr.reviewState), current)) return "not_new";
  return startFixRun({
    pullRequestId: pr.id,
    title: `Address review feedback on PR #${pr.number}`,
    body: reviewFixPrompt(pr, fresh),
    // Under the lock: another check may have consumed this review meanwhile.
    isNew: (locked) => hasNewReview(stateOf(locked.reviewState), current)
      && (!locked.lastReviewRunTime || !current.latestAt || Date.parse(current.latestAt) > locked.lastReviewRunTime.getTime()),
    record: (locked) => ({ reviewState: { ...((locked.reviewState ?? {}) as Json), review: { ...current } } }),
    alongside: mention?.alongside,
  });
}
