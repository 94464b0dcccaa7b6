import { randomBytes } from "node:crypto";
import { readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

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

/** The git admin folder (`<common dir>/worktrees/<name>`) a worktree's `.git` file names. */
export async function adminDirOf(worktree: string): Promise<string> {
  const text = await readFile(join(worktree, ".git"), "utf8");
  const match = /^gitdir: (.+)$/m.exec(text);
  if (!match) throw new Error(`${worktree}/.git names no git folder`);
  return resolve(worktree, match[1].trim());
}

// git writes these files whole; a reader never sees half of ours either.
export async function writeWhole(file: string, content: string): Promise<void> {
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(tmp, content);
  await rename(tmp, file);
}

/** The admin entry learns where its worktree now is (what `git worktree move` does after its rename). */
export async function relink(worktree: string): Promise<string> {
  const admin = await adminDirOf(worktree);
  await writeWhole(join(admin, "gitdir"), `${await realpath(worktree)}/.git\n`);
  return admin;
}

export async function isPoolAdmin(admin: string): Promise<boolean> {
  return (await readFile(join(admin, "locked"), "utf8").catch(() => "")).trim() === POOL_REASON;
}

/** Removes a pooled worktree's folder and, while it is still the pool's, its git entry. */
export async function removePooled(path: string): Promise<void> {
  const admin = await adminDirOf(path).catch(() => null);
  if (admin && (await isPoolAdmin(admin))) await rm(admin, { recursive: true, force: true });
  await rm(path, { recursive: true, force: true, maxRetries: 3 });
}

export const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;
