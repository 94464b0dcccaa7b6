import { relative, isAbsolute } from "node:path";
import { assertNotBaseBranch } from "@/lib/git/branch-name";
import { branchExists, branchSha } from "@/lib/git/refs";
import { git, GitError } from "@/lib/git/run";
import { canonicalPath, listWorktrees, pruneWorktrees, type Worktree } from "@/lib/git/worktree-list";

export type CreateWorktreeInput = {
  repoPath: string;
  /** Where the worktree lives, outside the repository, e.g. `<data dir>/worktrees/<project id>/<run id>`. */
  path: string;
  branch: string;
  baseBranch: string;
};

export type CreatedWorktree = {
  path: string;
  branch: string;
  /** Where the branch left the base branch: what the run's diff is measured against. */
  baseSha: string;
  /** Taken ready from a worktree pool (worktree-pool-take.ts) rather than checked out now. */
  pooled?: true;
  /** The pool's preparation (PoolPreparation's tag) the taken worktree still has, untouched since. */
  preparedAs?: string;
  /**
   * A worktree of the pool, made and taken by us and touched by no agent yet: its git folders
   * (real paths) and branch, as the take made them, so they need not be asked of git again.
   */
  git?: WorktreeGit;
};

/** A worktree's git folders, as real paths, and its branch's full ref. */
export type WorktreeGit = { commonDir: string; worktreeDir: string; branchRef: string };

const NO_REF = "0".repeat(40);

export function assertOutsideRepository(repoPath: string, path: string): void {
  const fromRepo = relative(canonicalPath(repoPath), canonicalPath(path));
  if (fromRepo === "" || (!fromRepo.startsWith("..") && !isAbsolute(fromRepo))) {
    throw new Error(`worktree path ${path} must be outside the repository ${repoPath}`);
  }
}

// A retry of the same prompt continues on the branch of the earlier attempt. The old-value
// check makes creation atomic, so two retries racing for one branch both end up using it.
// Returns the base tip the branch was created at, or null when it already existed.
async function ensureBranch(repoPath: string, branch: string, baseBranch: string): Promise<string | null> {
  const baseTip = await branchSha(repoPath, baseBranch);
  try {
    await git(repoPath, ["update-ref", "-m", `ringmaster: branch from ${baseBranch}`, `refs/heads/${branch}`, baseTip, NO_REF]);
    return baseTip;
  } catch (error) {
    if (!(error instanceof GitError) || !(await branchExists(repoPath, branch))) throw error;
    return null;
  }
}

/** Creates (or finds) the worktree of a run's branch; the branch starts at the base branch's tip. */
export async function createWorktree(input: CreateWorktreeInput): Promise<CreatedWorktree> {
  const { repoPath, path, branch, baseBranch } = input;
  await assertNotBaseBranch(branch, baseBranch);
  assertOutsideRepository(repoPath, path);

  // One listing answers both "is a worktree already at this path?" and "is the branch free?".
  let worktrees = await listWorktrees(repoPath);
  if (worktrees.some((w) => w.prunable)) {
    await pruneWorktrees(repoPath);
    worktrees = await listWorktrees(repoPath);
  }
  const wanted = canonicalPath(path);
  let existing: Worktree | null = null;
  for (const w of worktrees) if (w.path === wanted || canonicalPath(w.path) === wanted) existing = w;
  if (existing && existing.branch !== branch) {
    throw new Error(`a worktree at ${path} already exists for ${existing.branch ?? "a detached HEAD"}, not ${branch}`);
  }
  let createdAt: string | null = null;
  if (!existing) {
    createdAt = await ensureBranch(repoPath, branch, baseBranch);
    const holder = worktrees.find((w) => w.branch === branch);
    if (holder) throw new Error(`branch ${branch} is already checked out in the worktree at ${holder.path}`);
    await git(repoPath, ["worktree", "add", "--quiet", "--", path, branch]);
  }
  // A branch made just now starts at the base tip; an older one is measured from where it left.
  const baseSha = createdAt ?? (await git(repoPath, ["merge-base", `refs/heads/${baseBranch}`, `refs/heads/${branch}`])).trim();
  return { path: canonicalPath(path), branch, baseSha };
}
