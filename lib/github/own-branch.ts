import { existsSync } from "node:fs";
import { branchExists, branchSha, git, gitCheck } from "@/lib/git";
import { pushBranch } from "@/lib/git/push";
import { clonePath, prepareGithubClone, remoteAuth, type GithubProject } from "@/lib/github/repo";

// The tip last pushed, per branch: a push that failed (GitHub away) is retried at the next pass
// even when nothing new was committed, and a pass with nothing new asks GitHub for nothing.
const pushedRef = (branch: string) => `refs/ringmaster/pushed/${branch}`;

/**
 * The server's clone, ready for a branch Ringmaster writes itself (a campaign's state): cloned
 * when missing, and the first time the branch is written here, GitHub's copy of it (another
 * server's) or else its current base branch to start from.
 */
export async function prepareOwnBranch(project: GithubProject, branch: string): Promise<string> {
  const path = clonePath(project.id);
  if (existsSync(path) && (await branchExists(path, branch))) return path;
  return prepareGithubClone(project, branch);
}

/**
 * Pushes the branch when its tip moved since its last push (fast-forward only, never the base
 * branch, the token as a header: pushBranch). Returns the pushed tip, or null when GitHub has it already.
 */
export async function pushOwnBranch(project: GithubProject, branch: string): Promise<string | null> {
  const path = clonePath(project.id);
  const tip = await branchSha(path, branch);
  const pushed = (await gitCheck(path, ["rev-parse", "--verify", "--quiet", pushedRef(branch)])) ? (await git(path, ["rev-parse", pushedRef(branch)])).trim() : null;
  if (pushed === tip) return null;
  const { auth } = await remoteAuth(project);
  await pushBranch({ repoPath: path, branch, baseBranch: project.activeBranch ?? project.baseBranch, auth });
  await git(path, ["update-ref", pushedRef(branch), tip]);
  return tip;
}
