import type { GithubClient } from "@/lib/github/client";
import { hasWriteAccess } from "@/lib/github/permission";
import type { FeedbackItem } from "@/lib/github/review";

/**
 * A GitHub App's account (`name[bot]`: a suffix GitHub keeps for apps) can only write where a
 * repository admin installed it, so its reviews are the repository's own (Greptile, CodeRabbit).
 */
export const isAppAccount = (login: string) => /\[bot\]$/i.test(login);

/**
 * The feedback that may ask for a fix run: from apps installed on the repository and from people
 * who may push to it (GitHub's collaborator permission, cached). On a public repository anyone
 * can comment: their words neither start a run nor reach the agent's prompt.
 */
export async function trustedFeedback(client: GithubClient, connectionId: string, ref: { owner: string; repo: string }, items: FeedbackItem[]): Promise<FeedbackItem[]> {
  const people = [...new Set(items.map((i) => i.author).filter((a) => a && !isAppAccount(a)))];
  const writers = new Set<string>();
  for (const login of people) {
    if (await hasWriteAccess(client, connectionId, ref.owner, ref.repo, login)) writers.add(login);
  }
  return items.filter((i) => isAppAccount(i.author) || writers.has(i.author));
}
