import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { assertNotBaseBranch } from "@/lib/git/branch-name";
import { branchSha, headSha, isAncestor, isClean } from "@/lib/git/refs";
import { git, GitError } from "@/lib/git/run";
import { findWorktreeOfBranch } from "@/lib/git/worktree-list";

export type MergeRefusal =
  | "not a fast-forward"
  | "base checked out with uncommitted changes"
  | "untracked files in the way"
  | "base moved";

export type MergeResult = { ok: true; sha: string } | { ok: false; reason: MergeRefusal };

export type MergeInput = {
  repoPath: string;
  branch: string;
  baseBranch: string;
  /** Merge only if the base is still here (e.g. the commit the branch was rebased onto and tested against). */
  expectedBaseSha?: string;
};

// A rebase detaches HEAD, so `worktree list` no longer shows the branch as checked out, yet
// moving the ref would pull it from under the rebase, as `git branch -f` also refuses to do.
async function isBeingRebased(repoPath: string, branch: string): Promise<boolean> {
  const common = resolve(repoPath, (await git(repoPath, ["rev-parse", "--git-common-dir"])).trim());
  const linked = await readdir(join(common, "worktrees")).catch(() => [] as string[]);
  const gitDirs = [common, ...linked.map((name) => join(common, "worktrees", name))];
  for (const gitDir of gitDirs) {
    for (const kind of ["rebase-merge", "rebase-apply"]) {
      const headName = await readFile(join(gitDir, kind, "head-name"), "utf8").catch(() => "");
      if (headName.trim() === `refs/heads/${branch}`) return true;
    }
  }
  return false;
}

async function fastForwardCheckout(worktree: string, tip: string, base: string): Promise<MergeResult> {
  if (!(await isClean(worktree, { untracked: false }))) return { ok: false, reason: "base checked out with uncommitted changes" };
  if ((await headSha(worktree)) !== base) return { ok: false, reason: "base moved" };
  try {
    await git(worktree, ["merge", "--ff-only", "--quiet", tip]);
  } catch (error) {
    // git refuses before touching anything when an untracked file would be overwritten.
    if (error instanceof GitError && /untracked working tree files would be overwritten/.test(error.stderr)) {
      return { ok: false, reason: "untracked files in the way" };
    }
    throw error;
  }
  return { ok: true, sha: await headSha(worktree) };
}

async function compareAndSwap(repoPath: string, baseBranch: string, tip: string, base: string, branch: string): Promise<MergeResult> {
  try {
    await git(repoPath, ["update-ref", "-m", `ringmaster: fast-forward to ${branch}`, `refs/heads/${baseBranch}`, tip, base]);
  } catch (error) {
    if (error instanceof GitError && /but expected|cannot lock ref/.test(error.stderr)) return { ok: false, reason: "base moved" };
    throw error;
  }
  return { ok: true, sha: tip };
}

/**
 * Fast-forwards the base branch of a local repository to a run's branch. Where the base is
 * checked out (a user's working tree), the merge runs there so the files follow the ref;
 * elsewhere the ref moves with a compare-and-swap. Anything but a fast-forward is refused:
 * the caller rebases first.
 */
export async function mergeIntoBase(input: MergeInput): Promise<MergeResult> {
  const { repoPath, branch, baseBranch } = input;
  await assertNotBaseBranch(branch, baseBranch);
  const tip = await branchSha(repoPath, branch);
  const base = input.expectedBaseSha ?? (await branchSha(repoPath, baseBranch));
  if (!(await isAncestor(repoPath, base, tip))) return { ok: false, reason: "not a fast-forward" };

  if (await isBeingRebased(repoPath, baseBranch)) return { ok: false, reason: "base checked out with uncommitted changes" };
  const holder = await findWorktreeOfBranch(repoPath, baseBranch);
  if (holder && !holder.prunable) return fastForwardCheckout(holder.path, tip, base);
  return compareAndSwap(repoPath, baseBranch, tip, base, branch);
}
