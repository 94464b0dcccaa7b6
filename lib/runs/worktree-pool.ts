import { existsSync } from "node:fs";
import { join } from "node:path";
import { worktreesDir } from "@/lib/data-dir";
import { getEnv } from "@/lib/env";
import { adminDirOf, fillPool, type PoolPreparation } from "@/lib/git";
import { getLogger } from "@/lib/log";
import { sandboxShareTag, shareWithSandboxGroup } from "@/lib/sandbox/ownership";
import { getSandboxStatus } from "@/lib/sandbox/status";

/**
 * Each project's pool of ready worktrees, beside its runs' worktrees (a branch name never starts
 * with a dot, so no run's folder is called `.pool`; the same file system, so a take is a rename).
 */
export const poolDir = (projectId: string) => join(worktreesDir(projectId), ".pool");

/** The pool a new run of the project starts from; undefined when pools are off. */
export function projectPool(projectId: string): string | undefined {
  return getEnv().WORKTREE_POOL_SIZE > 0 ? poolDir(projectId) : undefined;
}

export type PoolTarget = { projectId: string; repoPath: string; baseBranch: string };

const fills = new Map<string, { again: boolean; done: Promise<void> }>();

/**
 * Refills the project's pool in the background, after a run took from it or the base moved; a fill
 * of it already running in this process runs once more instead. `create: false` only refreshes a
 * pool that exists (a merge of a project that has none makes none).
 */
export function refillPool(target: PoolTarget, opts: { create: boolean }): void {
  const size = getEnv().WORKTREE_POOL_SIZE;
  const pool = poolDir(target.projectId);
  if (size === 0 || (!opts.create && !existsSync(pool))) return;
  const running = fills.get(pool);
  if (running) {
    running.again = true;
    return;
  }
  const fill = { again: false, done: Promise.resolve() };
  fills.set(pool, fill);
  fill.done = (async () => {
    do {
      fill.again = false;
      try {
        await fillPool({ repoPath: target.repoPath, pool, baseBranch: target.baseBranch, size, prepare: await sandboxPreparation() });
      } catch (err) {
        getLogger("worktree-pool").warn({ projectId: target.projectId, err: (err as Error).message }, "worktree pool not refilled");
      }
    } while (fill.again);
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
  return { tag: sandboxShareTag(user), run: async (worktree) => shareWithSandboxGroup([worktree, await adminDirOf(worktree)], user) };
}

/** Settles once the fills this process started have ended. */
export async function poolFillsSettled(): Promise<void> {
  while (fills.size > 0) await Promise.all([...fills.values()].map((fill) => fill.done));
}
