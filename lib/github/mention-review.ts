import type { GithubClient } from "@/lib/github/client";
import { withoutMention } from "@/lib/github/mention-text";

/**
 * A review as one request: its body and every inline comment, read from GitHub, so whichever of
 * its deliveries comes first carries all of it.
 */
export async function reviewText(client: GithubClient, where: { owner: string; repo: string; number: number }, reviewId: number, login: string): Promise<string> {
  const base = { owner: where.owner, repo: where.repo, pull_number: where.number, review_id: reviewId };
  const [{ data: review }, comments] = await Promise.all([
    client.rest.pulls.getReview(base),
    client.paginate(client.rest.pulls.listCommentsForReview, { ...base, per_page: 100 }),
  ]);
  const parts = [withoutMention(review.body ?? "", login)];
  for (const c of comments) {
    const line = (c as { line?: number | null }).line ?? null;
    parts.push(`\`${c.path}\`${line ? ` line ${line}` : ""}: ${withoutMention(c.body, login)}`);
  }
  return parts.filter(Boolean).join("\n\n");
}
