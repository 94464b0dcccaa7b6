import { tmpdir } from "node:os";
import { currentBranch } from "@/lib/git/refs";
import { git, GitError } from "@/lib/git/run";
import { slugify } from "@/lib/slug";
import { DomainError, INTERNAL } from "@/lib/errors";

const SLUG_MAX = 40;

/** `ringmaster/<number>-<slug>`, or `ringmaster/<number>` when the title has no ASCII letters or digits. */
export function runBranchName(number: number, title: string): string {
  if (!Number.isSafeInteger(number) || number < 1) throw new Error(`run number must be a positive integer, got ${number}`);
  const slug = slugify(title, SLUG_MAX);
  return slug ? `ringmaster/${number}-${slug}` : `ringmaster/${number}`;
}

export class RunBranchError extends DomainError {
  constructor(message: string) {
    super(500, INTERNAL, message);
  }
}

// Branch names compare case-insensitively because refs on case-insensitive file systems
// (macOS, Windows) collide: "Main" would write the very file that holds "main".
const normalize = (name: string) => name.replace(/^refs\/heads\//, "").toLowerCase();

// Names like the ones runBranchName makes are valid refs by construction; only other names
// need git's own check (a process start, on the path of every run).
function isPlainBranchName(name: string): boolean {
  return /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/.test(name);
}

/** Throws unless `branch` is a valid branch name that is not the base branch, so a run can work on it. */
export async function assertNotBaseBranch(branch: string, baseBranch: string): Promise<void> {
  if (!branch.trim()) throw new RunBranchError("a run needs a branch name, got an empty one");
  if (branch === "HEAD" || branch.startsWith("-")) throw new RunBranchError(`"${branch}" is not a branch a run can work on`);
  if (!baseBranch.trim()) throw new RunBranchError("the base branch name is empty");
  if (normalize(branch) === normalize(baseBranch)) {
    throw new RunBranchError(`refusing to work on the base branch "${baseBranch}": runs work on their own branch`);
  }
  if (isPlainBranchName(branch)) return;
  try {
    // Outside any repository, so "@{-1}"-style shorthands cannot resolve to a real branch.
    await git(tmpdir(), ["check-ref-format", "--branch", branch]);
  } catch (error) {
    if (error instanceof GitError) throw new RunBranchError(`"${branch}" is not a valid branch name`);
    throw error;
  }
}

/** The branch checked out in a run's worktree, refusing a detached HEAD and the base branch. */
export async function requireRunBranch(worktree: string, baseBranch: string): Promise<string> {
  const branch = await currentBranch(worktree);
  if (!branch) throw new RunBranchError(`the worktree at ${worktree} has a detached HEAD; a run must be on its own branch`);
  await assertNotBaseBranch(branch, baseBranch);
  return branch;
}
