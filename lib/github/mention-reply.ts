import type { GithubClient } from "@/lib/github/client";

/** What a request was written as: where its 👀 goes and where the answers go. */
export type Place =
  | { kind: "issue"; owner: string; repo: string; number: number }
  | { kind: "comment" | "review-comment"; owner: string; repo: string; number: number; commentId: number }
  | { kind: "review"; owner: string; repo: string; number: number };

/**
 * 👀 on the request: work started. GitHub has no reactions on a review itself, so a review's
 * goes on its pull request. Already there (a retried job) is fine: GitHub answers 200.
 */
export async function markSeen(client: GithubClient, place: Place): Promise<void> {
  const { owner, repo } = place;
  if (place.kind === "comment") await client.rest.reactions.createForIssueComment({ owner, repo, comment_id: place.commentId, content: "eyes" });
  else if (place.kind === "review-comment") await client.rest.reactions.createForPullRequestReviewComment({ owner, repo, comment_id: place.commentId, content: "eyes" });
  else await client.rest.reactions.createForIssue({ owner, repo, issue_number: place.number, content: "eyes" });
}

/** An answer as a comment on the issue or pull request. */
export async function replyOn(client: GithubClient, where: { owner: string; repo: string; number: number }, body: string): Promise<void> {
  await client.rest.issues.createComment({ owner: where.owner, repo: where.repo, issue_number: where.number, body });
}
