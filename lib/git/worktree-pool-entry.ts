import { randomBytes } from "node:crypto";
import { readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { readOrEmpty } from "@/lib/git/fs";

/**
 * A pool of ready worktrees lives in one folder: `ready/<tip>-<random>` are worktrees checked out
 * (detached) at commit <tip>, `building/` holds the ones a filler is making or refreshing, and
 * `fill.lock` says who fills. Every move out of `ready/` is a rename, so one process gets an entry.
 * A pooled worktree's git entry stays locked with POOL_REASON until a run owns it: no `git worktree
 * prune` (any process, any command) drops it in the moment its folder has moved and git does not know yet.
 */
export const POOL_REASON = "ringmaster: a ready worktree of the pool";

export const readyDir = (pool: string) => join(pool, "ready");
export const buildingDir = (pool: string) => join(pool, "building");
/** `<tip>-<random>`, with `.<tag>` when the filler prepared the worktree (FillInput's `prepare`). */
export const entryName = (tip: string, tag?: string) => `${tip}-${randomBytes(4).toString("hex")}${tag ? `.${tag}` : ""}`;

/** The tip an entry's name says it is checked out at, and the preparation it names (null: none). */
export function parseEntryName(name: string): { tip: string; tag: string | null } {
  const dash = name.indexOf("-");
  const dot = name.indexOf(".", dash);
  return { tip: name.slice(0, dash), tag: dot === -1 ? null : name.slice(dot + 1) };
}

/**
 * What a filler does to each worktree it makes or refreshes before it is ready (off every run's
 * path), named by `tag`: a run that takes one at the tip, which its checkout left as prepared,
 * need not do it again.
 */
export type PoolPreparation = { tag: string; run: (worktree: string) => Promise<void> };

// The entry's small files are read and written synchronously: on a run's start (a pooled take)
// each asynchronous call would be a trip through libuv's thread pool (lib/git/ref-files.ts).

/** The git admin folder (`<common dir>/worktrees/<name>`) a worktree's `.git` file names. */
export function adminDirOf(worktree: string): string {
  const text = readFileSync(join(worktree, ".git"), "utf8");
  const match = /^gitdir: (.+)$/m.exec(text);
  if (!match) throw new Error(`${worktree}/.git names no git folder`);
  return resolve(worktree, match[1].trim());
}

// git writes these files whole; a reader never sees half of ours either.
export function writeWhole(file: string, content: string): void {
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

/**
 * The admin entry learns where its worktree now is (what `git worktree move` does after its
 * rename), or, with `to`, where it is about to be moved (its folder must exist).
 */
export function relink(worktree: string, to = worktree): string {
  const admin = adminDirOf(worktree);
  writeWhole(join(admin, "gitdir"), `${join(realpathSync(dirname(to)), basename(to))}/.git\n`);
  return admin;
}

export function isPoolAdmin(admin: string): boolean {
  return readOrEmpty(join(admin, "locked")).trim() === POOL_REASON;
}

/** Removes a pooled worktree's folder and, while it is still the pool's, its git entry. */
export async function removePooled(path: string): Promise<void> {
  let admin: string | null = null;
  try {
    admin = adminDirOf(path);
  } catch {
    // No readable git file: nothing of git's to remove.
  }
  if (admin && isPoolAdmin(admin)) await rm(admin, { recursive: true, force: true });
  await rm(path, { recursive: true, force: true, maxRetries: 3 });
}
