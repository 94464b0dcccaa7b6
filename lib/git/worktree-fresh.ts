import { assertNotBaseBranch } from "@/lib/git/branch-name";
import { git, GitError } from "@/lib/git/run";
import { canonicalPath } from "@/lib/git/worktree-list";
import { assertOutsideRepository, createWorktree, type CreatedWorktree } from "@/lib/git/worktree-create";
import { readBranchTips } from "@/lib/git/ref-files";
import { startFromPool, type PoolTake } from "@/lib/git/worktree-pool-take";

export type FreshWorktreeInput = {
  repoPath: string;
  /** The branch wanted; when it is taken, the first free of `<name>-2`, `<name>-3`, … */
  name: string;
  baseBranch: string;
  /** Where the worktree of a branch lives, outside the repository. */
  pathOf: (branch: string) => string;
  /** A pool of ready worktrees (fillPool) to start from before checking one out. */
  pool?: string;
};

/**
 * A new run's branch and worktree, on the path of every run start, in three git processes where
 * the careful way (createWorktree) takes seven: one listing answers which names are taken and
 * where the base is, and `worktree add -b` makes the branch and checks it out at once. Whatever
 * that does not expect (a name taken meanwhile, a stale worktree entry, a leftover folder) goes
 * the careful way, which finds the branch made so far and continues on it. With a pool, a ready
 * worktree at the base tip is taken instead (fromPool).
 */
export async function createFreshWorktree(input: FreshWorktreeInput): Promise<CreatedWorktree> {
  // The pool is tried once: by fromPool where git's files answer for the name, else below.
  const pooled = input.pool ? await fromPool(input, input.pool) : null;
  if (pooled && pooled !== UNTRIED) return pooled;
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
  assertOutsideRepository(repoPath, path);
  // A numbered name (the prompt's earlier branch is kept) still starts in a ready worktree.
  const take = input.pool && pooled === UNTRIED ? await startFromPool({ repoPath, pool: input.pool, branch, tip: baseTip, path }) : null;
  if (take) return pooledWorktree(path, branch, baseTip, take);
  try {
    await git(repoPath, ["worktree", "add", "--quiet", "-b", branch, "--", path, baseTip]);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return createWorktree({ repoPath, path, branch, baseBranch });
  }
  return { path: canonicalPath(path), branch, baseSha: baseTip };
}

const UNTRIED = "untried";

/**
 * The common case of a prompt's first run in one git process (the branch's compare-and-swap
 * creation): the base tip and the name read from git's files, a ready worktree at that tip taken.
 * Null, with nothing made, when none is ready there (or it could not become the run's); UNTRIED
 * when the name is taken or git's files cannot answer: the listing above then decides.
 */
async function fromPool(input: FreshWorktreeInput, pool: string): Promise<CreatedWorktree | null | typeof UNTRIED> {
  const { repoPath, name: branch, baseBranch } = input;
  const tips = readBranchTips(repoPath, [baseBranch, branch]);
  const tip = tips?.get(baseBranch);
  if (!tip || tips!.get(branch) !== null) return UNTRIED;
  const path = input.pathOf(branch);
  await assertNotBaseBranch(branch, baseBranch);
  assertOutsideRepository(repoPath, path);
  const take = await startFromPool({ repoPath, pool, branch, tip, path });
  return take ? pooledWorktree(path, branch, tip, take) : null;
}

function pooledWorktree(path: string, branch: string, baseSha: string, take: PoolTake): CreatedWorktree {
  return {
    path: canonicalPath(path), branch, baseSha, pooled: true,
    ...(take.preparedAs ? { preparedAs: take.preparedAs } : {}),
    git: { commonDir: take.commonDir, worktreeDir: take.worktreeDir, branchRef: `refs/heads/${branch}` },
  };
}
