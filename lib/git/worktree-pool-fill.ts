import { mkdir, open, readdir, readFile, realpath, rename, rm, rmdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { branchSha } from "@/lib/git/refs";
import { git, GitError } from "@/lib/git/run";
import { errorCode } from "@/lib/git/fs";
import { buildingDir, entryName, isPoolAdmin, POOL_REASON, readyDir, relink, removePooled, type PoolPreparation } from "@/lib/git/worktree-pool-entry";

// A fill is off every run's path: its checkouts are started niced, behind the runs' starts.
const BACKGROUND = { background: true } as const;

export type FillInput = { repoPath: string; pool: string; baseBranch: string; size: number; prepare?: PoolPreparation };
export type Filled = { added: number; refreshed: number; removed: number };

// A filler that died keeps its lock this long; a checkout of a large repository fits well within.
const LOCK_STALE_MS = 10 * 60_000;
// Rounds of one fill while the base keeps moving under it; the next take or merge asks again.
const ROUNDS = 3;

async function lockPool(pool: string): Promise<(() => Promise<void>) | null> {
  const file = join(pool, "fill.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await (await open(file, "wx")).close();
      return () => rm(file, { force: true });
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
    }
    const since = (await stat(file).catch(() => null))?.mtimeMs;
    if (since !== undefined && Date.now() - since < LOCK_STALE_MS) return null;
    await rm(file, { force: true });
  }
  return null;
}

// Takes an entry out of `ready/` the way a run does (a rename); false when a run was first.
async function claim(pool: string, name: string): Promise<string | null> {
  const at = join(buildingDir(pool), name);
  try {
    await rename(join(readyDir(pool), name), at);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return null;
    throw error;
  }
  try {
    relink(at);
  } catch {
    // A broken entry (no .git file) is still claimed: removePooled takes it away.
  }
  return at;
}

// Into `ready/` under the name of the tip it is at (a new one keeps its name, so its git entry's
// name says where it came from). Its git entry is pointed there first: a run may take it from
// `ready/` (and point it at itself) the moment it is there, and a relink after the rename raced
// that take (the entry's .git gone from under it, or the run's pointer overwritten).
async function publish(pool: string, at: string, name: string): Promise<void> {
  const to = join(readyDir(pool), name);
  relink(at, to);
  await rename(at, to);
}

// What a filler that died left in `building/`: folders, and git entries (locked, so git keeps
// them) whose folder is gone. Only the lock holder moves anything in or out of `building/`.
async function sweepBuilding(repoPath: string | null, pool: string): Promise<number> {
  const left = await readdir(buildingDir(pool)).catch(() => [] as string[]);
  for (const name of left) await removePooled(join(buildingDir(pool), name));
  if (!repoPath) return left.length;
  const common = (await git(repoPath, ["rev-parse", "--path-format=absolute", "--git-common-dir"])).trim();
  const building = await realpath(buildingDir(pool)).catch(() => buildingDir(pool));
  let orphans = 0;
  for (const name of await readdir(join(common, "worktrees")).catch(() => [] as string[])) {
    const admin = join(common, "worktrees", name);
    if (!isPoolAdmin(admin)) continue;
    const gitdir = (await readFile(join(admin, "gitdir"), "utf8").catch(() => "")).trim();
    if (dirname(dirname(gitdir)) !== building) continue;
    await rm(admin, { recursive: true, force: true });
    orphans++;
  }
  return left.length + orphans;
}

/**
 * Brings the pool to `size` worktrees at the base branch's tip: a stale one (the base moved) is
 * checked out again at the tip (only what changed is written), a missing one is added, extra ones
 * go. Null when another process fills it now. Off any run's path: a run only takes (startFromPool).
 */
export async function fillPool(input: FillInput): Promise<Filled | null> {
  const { repoPath, pool, baseBranch, size, prepare } = input;
  if (prepare && !/^[A-Za-z0-9_-]+$/.test(prepare.tag)) throw new Error(`a pool preparation's tag must be letters, digits, _ and -: ${prepare.tag}`);
  await mkdir(readyDir(pool), { recursive: true });
  await mkdir(buildingDir(pool), { recursive: true });
  const release = await lockPool(pool);
  if (!release) return null;
  const filled: Filled = { added: 0, refreshed: 0, removed: 0 };
  try {
    filled.removed += await sweepBuilding(repoPath, pool);
    for (let round = 0; round < ROUNDS; round++) {
      const tip = await branchSha(repoPath, baseBranch);
      const names = await readdir(readyDir(pool));
      let fresh = names.filter((name) => name.startsWith(`${tip}-`)).length;
      for (const name of names.filter((n) => !n.startsWith(`${tip}-`))) {
        const at = await claim(pool, name);
        if (!at) continue;
        if (fresh < size && (await checkoutAt(at, tip))) {
          await prepare?.run(at);
          await publish(pool, at, entryName(tip, prepare?.tag));
          fresh++;
          filled.refreshed++;
        } else {
          await removePooled(at);
          filled.removed++;
        }
      }
      for (; fresh < size; fresh++) {
        const name = entryName(tip, prepare?.tag);
        const at = join(buildingDir(pool), name);
        await git(repoPath, ["worktree", "add", "--quiet", "--detach", "--lock", "--reason", POOL_REASON, "--", at, tip], BACKGROUND);
        await prepare?.run(at);
        await publish(pool, at, name);
        filled.added++;
      }
      // A smaller size than before: the extra ones go.
      for (const name of (await readdir(readyDir(pool))).slice(size)) {
        const at = await claim(pool, name);
        if (at) { await removePooled(at); filled.removed++; }
      }
      if ((await branchSha(repoPath, baseBranch)) === tip) break;
    }
  } finally {
    await release();
  }
  return filled;
}

async function checkoutAt(worktree: string, tip: string): Promise<boolean> {
  try {
    await git(worktree, ["checkout", "--quiet", "--detach", tip], BACKGROUND);
    return true;
  } catch (error) {
    if (error instanceof GitError) return false;
    throw error;
  }
}

/**
 * Removes the whole pool (its project was archived or has not run for long). `repoPath`, when
 * known, also lets git entries a dead filler left go. Null when a filler holds the pool now.
 */
export async function drainPool(pool: string, repoPath: string | null): Promise<number | null> {
  const release = await lockPool(pool).catch((error) => (errorCode(error) === "ENOENT" ? async () => {} : Promise.reject(error)));
  if (!release) return null;
  let removed = 0;
  try {
    for (const name of await readdir(readyDir(pool)).catch(() => [] as string[])) {
      const at = await claim(pool, name);
      if (at) { await removePooled(at); removed++; }
    }
    removed += await sweepBuilding(repoPath, pool);
    await rm(readyDir(pool), { recursive: true, force: true });
    await rm(buildingDir(pool), { recursive: true, force: true });
  } finally {
    await release();
  }
  // A fill that started since keeps the folder.
  await rmdir(pool).catch(() => {});
  return removed;
}

/** When a run last took from the pool or a fill last changed it; null when there is none. */
export async function poolChangedAt(pool: string): Promise<Date | null> {
  return (await stat(readyDir(pool)).catch(() => null))?.mtime ?? null;
}
