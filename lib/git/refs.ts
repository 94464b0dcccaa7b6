import { git, gitCheck, GitError } from "@/lib/git/run";

const heads = (branch: string) => `refs/heads/${branch}`;

/** The branch checked out at repoPath, or null when HEAD is detached. */
export async function currentBranch(repoPath: string): Promise<string | null> {
  try {
    const ref = (await git(repoPath, ["symbolic-ref", "--quiet", "HEAD"])).trim();
    return ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : null;
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return null;
    throw error;
  }
}

export function branchExists(repoPath: string, branch: string): Promise<boolean> {
  return gitCheck(repoPath, ["rev-parse", "--verify", "--quiet", `${heads(branch)}^{commit}`]);
}

/** The commit sha of a local branch; throws when the branch does not exist. */
export async function branchSha(repoPath: string, branch: string): Promise<string> {
  return (await git(repoPath, ["rev-parse", "--verify", `${heads(branch)}^{commit}`])).trim();
}

export async function headSha(worktree: string): Promise<string> {
  return (await git(worktree, ["rev-parse", "--verify", "HEAD^{commit}"])).trim();
}

/** Untracked files count as changes unless `untracked: false`; ignored files never do. */
export async function isClean(worktree: string, opts: { untracked?: boolean } = {}): Promise<boolean> {
  const untracked = opts.untracked === false ? "no" : "all";
  const status = await git(worktree, ["status", "--porcelain", `--untracked-files=${untracked}`]);
  return status.trim() === "";
}

/** Commits on branch that are not reachable from baseBranch. */
export async function commitsAhead(repoPath: string, branch: string, baseBranch: string): Promise<number> {
  const count = await git(repoPath, ["rev-list", "--count", `${heads(baseBranch)}..${heads(branch)}`, "--"]);
  return Number(count.trim());
}

export async function hasUnmergedCommits(repoPath: string, branch: string, baseBranch: string): Promise<boolean> {
  return (await commitsAhead(repoPath, branch, baseBranch)) > 0;
}

export function isAncestor(repoPath: string, ancestor: string, descendant: string): Promise<boolean> {
  return gitCheck(repoPath, ["merge-base", "--is-ancestor", ancestor, descendant]);
}
