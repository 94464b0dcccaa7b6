import { access } from "node:fs/promises";
import { resolve } from "node:path";
import { requireRunBranch } from "@/lib/git/branch-name";
import { headSha, isClean } from "@/lib/git/refs";
import { git } from "@/lib/git/run";

export type RebaseResult =
  | { ok: true; sha: string }
  | { ok: false; conflict: string; files: string[] };

async function rebaseInProgress(worktree: string): Promise<boolean> {
  for (const dir of ["rebase-merge", "rebase-apply"]) {
    const path = resolve(worktree, (await git(worktree, ["rev-parse", "--git-path", dir])).trim());
    if (await access(path).then(() => true, () => false)) return true;
  }
  return false;
}

async function conflictedFiles(worktree: string): Promise<string[]> {
  const out = await git(worktree, ["diff", "--name-only", "--diff-filter=U", "-z"]);
  return out.split("\0").filter(Boolean);
}

/**
 * Replays the run's commits on the base branch's tip. On a conflict the rebase is aborted,
 * so the branch and its worktree are exactly as they were.
 */
export async function rebaseOntoBase(worktree: string, baseBranch: string): Promise<RebaseResult> {
  const branch = await requireRunBranch(worktree, baseBranch);
  if (!(await isClean(worktree, { untracked: false }))) {
    throw new Error(`the worktree of ${branch} has uncommitted changes; commit them before rebasing`);
  }
  try {
    await git(worktree, ["rebase", "--quiet", "--no-verify", `refs/heads/${baseBranch}`]);
  } catch (error) {
    if (!(await rebaseInProgress(worktree))) throw error;
    const files = await conflictedFiles(worktree);
    await git(worktree, ["rebase", "--abort"]);
    if (files.length === 0) throw error;
    return { ok: false, conflict: `rebasing ${branch} onto ${baseBranch} conflicts in ${files.join(", ")}`, files };
  }
  return { ok: true, sha: await headSha(worktree) };
}
