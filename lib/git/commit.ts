import { requireRunBranch } from "@/lib/git/branch-name";
import { headSha } from "@/lib/git/refs";
import { git, gitCheck } from "@/lib/git/run";

/**
 * Stages every change (additions, edits, deletions) and commits it on the run's branch.
 * Resolves with the new commit's sha, or null when there was nothing to commit.
 */
export async function commitAll(worktree: string, message: string, baseBranch: string): Promise<string | null> {
  if (!message.trim()) throw new Error("a commit needs a message");
  await requireRunBranch(worktree, baseBranch);
  await git(worktree, ["add", "--all"]);
  const nothingStaged = await gitCheck(worktree, ["diff", "--cached", "--quiet"]);
  if (nothingStaged) return null;
  // Hooks belong to the people working in the repository; an agent's checkpoint must not
  // block on them or run code they did not expect to run unattended.
  await git(worktree, ["commit", "--quiet", "--no-verify", "--message", message]);
  return headSha(worktree);
}
