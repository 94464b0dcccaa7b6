import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { git } from "@/lib/git/run";

export type Worktree = {
  path: string;
  /** null for a bare repository's entry or a branch without commits yet. */
  head: string | null;
  /** Short branch name, null when detached or bare. */
  branch: string | null;
  bare: boolean;
  detached: boolean;
  locked: boolean;
  /** Its directory is gone; `git worktree prune` will forget it. */
  prunable: boolean;
};

function parseRecord(record: string): Worktree | null {
  const worktree: Worktree = { path: "", head: null, branch: null, bare: false, detached: false, locked: false, prunable: false };
  for (const line of record.split("\0")) {
    const space = line.indexOf(" ");
    const key = space === -1 ? line : line.slice(0, space);
    const value = space === -1 ? "" : line.slice(space + 1);
    if (key === "worktree") worktree.path = value;
    else if (key === "HEAD") worktree.head = value;
    else if (key === "branch") worktree.branch = value.replace(/^refs\/heads\//, "");
    else if (key === "bare" || key === "detached" || key === "locked" || key === "prunable") worktree[key] = true;
  }
  return worktree.path ? worktree : null;
}

/** Every worktree of the repository, the main one first. */
export async function listWorktrees(repoPath: string): Promise<Worktree[]> {
  const out = await git(repoPath, ["worktree", "list", "--porcelain", "-z"]);
  return out
    .split("\0\0")
    .map(parseRecord)
    .filter((worktree): worktree is Worktree => worktree !== null);
}

/** Forgets worktrees whose directories were deleted behind git's back. */
export async function pruneWorktrees(repoPath: string): Promise<void> {
  await git(repoPath, ["worktree", "prune"]);
}

// git reports resolved paths; the caller's may go through a symlink (macOS /var → /private/var).
/** The path with links resolved (synchronous: one system call, on every run's start); as given, resolved, when it does not exist. */
export function canonicalPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export async function findWorktreeAt(repoPath: string, path: string): Promise<Worktree | null> {
  const wanted = canonicalPath(path);
  for (const worktree of await listWorktrees(repoPath)) {
    if (worktree.path === wanted || canonicalPath(worktree.path) === wanted) return worktree;
  }
  return null;
}

export async function findWorktreeOfBranch(repoPath: string, branch: string): Promise<Worktree | null> {
  return (await listWorktrees(repoPath)).find((worktree) => worktree.branch === branch) ?? null;
}
