import { assertNotBaseBranch } from "@/lib/git/branch-name";
import { git, GitError } from "@/lib/git/run";
import { canonicalPath } from "@/lib/git/worktree-list";
import { assertOutsideRepository, createWorktree, type CreatedWorktree } from "@/lib/git/worktree-create";

export type FreshWorktreeInput = {
  repoPath: string;
  /** The branch wanted; when it is taken, the first free of `<name>-2`, `<name>-3`, … */
  name: string;
  baseBranch: string;
  /** Where the worktree of a branch lives, outside the repository. */
  pathOf: (branch: string) => string;
};

/**
 * A new run's branch and worktree, on the path of every run start, in three git processes where
 * the careful way (createWorktree) takes seven: one listing answers which names are taken and
 * where the base is, and `worktree add -b` makes the branch and checks it out at once. Whatever
 * that does not expect (a name taken meanwhile, a stale worktree entry, a leftover folder) goes
 * the careful way, which finds the branch made so far and continues on it.
 */
export async function createFreshWorktree(input: FreshWorktreeInput): Promise<CreatedWorktree> {
  const { repoPath, name, baseBranch } = input;
  const base = `refs/heads/${baseBranch}`;
  // Literal patterns match a ref exactly (or below it); the glob matches the numbered names.
  const listed = await git(repoPath, ["for-each-ref", "--format=%(objectname) %(refname)", base, `refs/heads/${name}`, `refs/heads/${name}-*`]);
  const refs = new Map(listed.split("\n").filter(Boolean).map((line) => {
    const space = line.indexOf(" ");
    return [line.slice(space + 1), line.slice(0, space)] as const;
  }));
  const baseTip = refs.get(base);
  if (!baseTip) throw new GitError(repoPath, ["for-each-ref", base], 1, `the base branch ${baseBranch} does not exist`);
  let branch = name;
  for (let i = 2; refs.has(`refs/heads/${branch}`); i++) branch = `${name}-${i}`;

  const path = input.pathOf(branch);
  await assertNotBaseBranch(branch, baseBranch);
  await assertOutsideRepository(repoPath, path);
  try {
    await git(repoPath, ["worktree", "add", "--quiet", "-b", branch, "--", path, baseTip]);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return createWorktree({ repoPath, path, branch, baseBranch });
  }
  return { path: await canonicalPath(path), branch, baseSha: baseTip };
}
