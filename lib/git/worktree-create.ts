import { relative, isAbsolute } from "node:path";
import { assertNotBaseBranch } from "@/lib/git/branch-name";
import { branchExists, branchSha } from "@/lib/git/refs";
import { git, GitError } from "@/lib/git/run";
import { canonicalPath, findWorktreeAt, findWorktreeOfBranch, pruneWorktrees } from "@/lib/git/worktree-list";

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
};

const NO_REF = "0".repeat(40);

async function assertOutsideRepository(repoPath: string, path: string): Promise<void> {
  const fromRepo = relative(await canonicalPath(repoPath), await canonicalPath(path));
  if (fromRepo === "" || (!fromRepo.startsWith("..") && !isAbsolute(fromRepo))) {
    throw new Error(`worktree path ${path} must be outside the repository ${repoPath}`);
  }
}

// A retry of the same prompt continues on the branch of the earlier attempt. The old-value
// check makes creation atomic, so two retries racing for one branch both end up using it.
async function ensureBranch(repoPath: string, branch: string, baseBranch: string): Promise<void> {
  if (await branchExists(repoPath, branch)) return;
  const baseTip = await branchSha(repoPath, baseBranch);
  try {
    await git(repoPath, ["update-ref", "-m", `ringmaster: branch from ${baseBranch}`, `refs/heads/${branch}`, baseTip, NO_REF]);
  } catch (error) {
    if (!(error instanceof GitError) || !(await branchExists(repoPath, branch))) throw error;
  }
}

async function assertBranchFree(repoPath: string, branch: string): Promise<void> {
  let holder = await findWorktreeOfBranch(repoPath, branch);
  if (holder?.prunable) {
    await pruneWorktrees(repoPath);
    holder = await findWorktreeOfBranch(repoPath, branch);
  }
  if (holder) throw new Error(`branch ${branch} is already checked out in the worktree at ${holder.path}`);
}

/** Creates (or finds) the worktree of a run's branch; the branch starts at the base branch's tip. */
export async function createWorktree(input: CreateWorktreeInput): Promise<CreatedWorktree> {
  const { repoPath, path, branch, baseBranch } = input;
  await assertNotBaseBranch(branch, baseBranch);
  await assertOutsideRepository(repoPath, path);

  let existing = await findWorktreeAt(repoPath, path);
  if (existing?.prunable) {
    await pruneWorktrees(repoPath);
    existing = null;
  }
  if (existing && existing.branch !== branch) {
    throw new Error(`a worktree at ${path} already exists for ${existing.branch ?? "a detached HEAD"}, not ${branch}`);
  }
  if (!existing) {
    await ensureBranch(repoPath, branch, baseBranch);
    await assertBranchFree(repoPath, branch);
    await git(repoPath, ["worktree", "add", "--quiet", "--", path, branch]);
  }
  const baseSha = (await git(repoPath, ["merge-base", `refs/heads/${baseBranch}`, `refs/heads/${branch}`])).trim();
  return { path: await canonicalPath(path), branch, baseSha };
}
