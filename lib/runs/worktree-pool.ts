import { existsSync } from "node:fs";
import { join } from "node:path";
import { worktreesDir } from "@/lib/data-dir";
import { getEnv } from "@/lib/env";
import { adminDirOf, fillPool, type PoolPreparation } from "@/lib/git";
import { getLogger } from "@/lib/log";
import { sandboxShareTag, shareWithSandboxGroup } from "@/lib/sandbox/ownership";
import { getSandboxStatus } from "@/lib/sandbox/status";
import { startsSettled } from "@/lib/runs/starts-in-flight";

/**
 * Each project's pool of ready worktrees, beside its runs' worktrees (a branch name never starts
 * with a dot, so no run's folder is called `.pool`; the same file system, so a take is a rename).
 */
export const poolDir = (projectId: string) => join(worktreesDir(projectId), ".pool");

/** The pool a new run of the project starts from; undefined when pools are off. */
export function projectPool(projectId: string): string | undefined {
  return getEnv().WORKTREE_POOL_SIZE > 0 ? poolDir(projectId) : undefined;
}

export type PoolTarget = { projectId: string; repoPath: string; baseBranch: string; settings: PoolSettings };

type PoolSettings = { parallelEnabled: boolean; maxParallel: number };

/**
 * How many ready worktrees a project keeps: as many as its agents can start at once (a burst into
 * its free slots takes one each), at most WORKTREE_POOL_SIZE (each costs a checkout on disk).
 */
export function poolSize(settings: PoolSettings): number {
  return Math.min(getEnv().WORKTREE_POOL_SIZE, settings.parallelEnabled ? settings.maxParallel : 1);
}

const fills = new Map<string, { again: PoolTarget | null; done: Promise<void> }>();

/**
 * Refills the project's pool in the background, after a run took from it or the base moved; a fill
 * of it already running in this process runs once more instead, for the latest caller's target
 * (its settings say the size). `create: false` only refreshes a pool that exists (a merge of a
 * project that has none makes none).
 */
export function refillPool(target: PoolTarget, opts: { create: boolean }): void {
  const pool = poolDir(target.projectId);
  if (poolSize(target.settings) === 0 || (!opts.create && !existsSync(pool))) return;
  const running = fills.get(pool);
  if (running) {
    running.again = target;
    return;
  }
  const fill = { again: target as PoolTarget | null, done: Promise.resolve() };
  fills.set(pool, fill);
  fill.done = (async () => {
    for (let next = fill.again; next; next = fill.again) {
      fill.again = null;
      try {
        await fillPool({ repoPath: next.repoPath, pool, baseBranch: next.baseBranch, size: poolSize(next.settings), prepare: await sandboxPreparation() });
      } catch (err) {
        getLogger("worktree-pool").warn({ projectId: next.projectId, err: (err as Error).message }, "worktree pool not refilled");
      }
    }
    fills.delete(pool);
  })();
}

/**
 * Where agents run as the sandbox's user, each ready worktree and its git entry (HEAD's log, the
 * index) are shared with its group when it is filled, not when a run starts in it: that walk costs
 * a run's start time in proportion to the repository's files (about 170 ms for 20,000 files here).
 */
async function sandboxPreparation(): Promise<PoolPreparation | undefined> {
  const status = await getSandboxStatus();
  const user = status.ok ? status.host.user : null;
  if (!user) return undefined;
  return { tag: sandboxShareTag(user), run: async (worktree) => shareWithSandboxGroup([worktree, adminDirOf(worktree)], user, { background: true }) };
}

/** Settles once the fills this process started have ended. */
export async function poolFillsSettled(): Promise<void> {
  // A refill a run's start asked for waits for the worker's starts to settle before it begins.
  await startsSettled();
  while (fills.size > 0) await Promise.all([...fills.values()].map((fill) => fill.done));
}
