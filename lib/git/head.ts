import { readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

function gitDirOf(worktree: string): string {
  const dotGit = join(worktree, ".git");
  try {
    const pointer = readFileSync(dotGit, "utf8").match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
    if (!pointer) throw new Error(`${dotGit} is neither a directory nor a gitdir pointer`);
    return isAbsolute(pointer) ? pointer : resolve(worktree, pointer);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EISDIR") return dotGit;
    throw err;
  }
}

/**
 * The checked-out branch of a working tree, read from its HEAD file. Every tick of every
 * local project asks this, so it reads a tiny file (synchronously: microseconds) instead
 * of starting a git process.
 */
export function readHeadBranch(worktree: string): string | null {
  const head = readFileSync(join(gitDirOf(worktree), "HEAD"), "utf8").trim();
  return head.startsWith("ref: refs/heads/") ? head.slice("ref: refs/heads/".length) : null;
}
