import { assertNotBaseBranch } from "@/lib/git/branch-name";
import { branchExists, branchSha, commitsAhead, isClean } from "@/lib/git/refs";
import { git, GitError } from "@/lib/git/run";
import { findWorktreeAt, findWorktreeOfBranch, pruneWorktrees } from "@/lib/git/worktree-list";
import { DomainError, INTERNAL } from "@/lib/errors";

export type RemoveWorktreeInput = {
  repoPath: string;
  path: string;
  branch: string;
  baseBranch: string;
  /** The work was abandoned on purpose: remove the worktree even with unmerged commits or uncommitted changes. */
  discardUnmerged?: boolean;
};

export type RemovedWorktree = {
  /** Only a branch fully contained in the base branch is deleted; otherwise it keeps the run's commits. */
  branchDeleted: boolean;
};

export class UnmergedWorkError extends DomainError {
  constructor(message: string) {
    super(500, INTERNAL, message);
  }
}

async function deleteIfStill(repoPath: string, branch: string, tip: string): Promise<boolean> {
  if (await findWorktreeOfBranch(repoPath, branch)) return false;
  try {
    // Compare-and-swap: a commit that lands after the merged check keeps the branch alive.
    await git(repoPath, ["update-ref", "-d", `refs/heads/${branch}`, tip]);
    return true;
  } catch (error) {
    if (error instanceof GitError) return false;
    throw error;
  }
}

/** Removes a run's worktree, refusing to lose commits the base branch does not have. */
export async function removeWorktree(input: RemoveWorktreeInput): Promise<RemovedWorktree> {
  const { repoPath, path, branch, baseBranch, discardUnmerged = false } = input;
  await assertNotBaseBranch(branch, baseBranch);
  const found = await findWorktreeAt(repoPath, path);
  const worktree = found && !found.prunable ? found : null;
  if (worktree && worktree.branch !== branch && !discardUnmerged) {
    throw new UnmergedWorkError(`the worktree at ${path} is on ${worktree.branch ?? "a detached HEAD"}, not ${branch}`);
  }

  const tip = (await branchExists(repoPath, branch)) ? await branchSha(repoPath, branch) : null;
  const ahead = tip ? await commitsAhead(repoPath, branch, baseBranch) : 0;
  if (!discardUnmerged && ahead > 0) {
    throw new UnmergedWorkError(`${branch} has ${ahead} commit(s) not in ${baseBranch}; merge it or discard it deliberately`);
  }
  if (!discardUnmerged && worktree && !(await isClean(worktree.path))) {
    throw new UnmergedWorkError(`the worktree at ${path} has uncommitted changes; commit them or discard them deliberately`);
  }

  if (worktree) await git(repoPath, ["worktree", "remove", "--force", worktree.path]);
  // Only a stale entry is pruned: `git worktree prune` also deletes the half-made entry of a
  // worktree another run is adding at that moment, and that run's `worktree add` then fails.
  if (found?.prunable) await pruneWorktrees(repoPath);
  const branchDeleted = tip !== null && ahead === 0 && (await deleteIfStill(repoPath, branch, tip));
  return { branchDeleted };
}
