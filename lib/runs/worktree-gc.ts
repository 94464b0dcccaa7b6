import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { resolve } from "node:path";
import { getDb } from "@/lib/db";
import { dataDir } from "@/lib/data-dir";
import { getEnv } from "@/lib/env";
import { drainPool, poolChangedAt, removeWorktree, UnmergedWorkError } from "@/lib/git";
import { clonePath } from "@/lib/github/repo";
import { poolDir } from "@/lib/runs/worktree-pool";
import { getLogger } from "@/lib/log";
import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";

const PAGE = 100;

// Runs whose worktree nobody needs any more: failed, cancelled, timed out or lost; ended without
// changes; or past their merge (merged, or refused — those hold unmerged commits and are kept).
const ENDED = {
  worktreePath: { not: null }, worktreeGoneAt: null, finishedAt: { not: null },
  project: { repoKind: "local" as const, repoPath: { not: null } },
  OR: [
    { status: { in: ["failed" as const, "cancelled" as const, "timed_out" as const, "lost" as const] } },
    { status: "succeeded" as const, commitSha: null },
    { status: "succeeded" as const, mergeStatus: { in: ["merged", "conflict", "failed", "skipped"] } },
  ],
};

export interface Collected { removed: number; kept: number }

/**
 * Seed 003's worktree cleanup for the runs the merge does not clean up after. Guardrails: a
 * worktree is one per branch, so one a live run, a pending merge or its prompt's next attempt
 * still uses is left alone; one holding commits the base branch lacks (or uncommitted changes)
 * is kept until it is older than the retention, then removed (its branch keeps the commits).
 */
export async function collectWorktrees(opts: { now: Date; retentionMs: number }): Promise<Collected> {
  const db = getDb();
  const result: Collected = { removed: 0, kept: 0 };
  for (let after = ""; ;) {
    const runs = await db.run.findMany({ where: { ...ENDED, id: { gt: after } }, include: { project: true, prompt: true }, orderBy: { id: "asc" }, take: PAGE });
    after = runs.at(-1)?.id ?? after;
    for (const run of runs) {
      if (await stillUsed(run)) { result.kept++; continue; }
      const old = opts.now.getTime() - run.finishedAt!.getTime() > opts.retentionMs;
      try {
        await removeWorktree({
          repoPath: run.project.repoPath!, path: run.worktreePath!, branch: run.branch!,
          baseBranch: run.project.activeBranch ?? run.project.baseBranch, discardUnmerged: old,
        });
        await db.run.updateMany({ where: { worktreePath: run.worktreePath, worktreeGoneAt: null }, data: { worktreeGoneAt: opts.now } });
        result.removed++;
      } catch (err) {
        if (!(err instanceof UnmergedWorkError)) getLogger("worktree-gc").warn({ err: (err as Error).message, runId: run.id }, "worktree not removed");
        result.kept++;
      }
    }
    if (runs.length < PAGE) return result;
  }
}

async function stillUsed(run: { id: string; branch: string | null; worktreePath: string | null; prompt: { branch: string | null; status: string } | null }) {
  if (!run.branch) return true;
  const continues = run.prompt?.branch === run.branch && (run.prompt.status === "pending" || run.prompt.status === "in_progress");
  if (continues) return true;
  const sharing = await getDb().run.count({
    where: { worktreePath: run.worktreePath, id: { not: run.id }, OR: [{ status: { in: [...LIVE_RUN_STATUSES] } }, { status: "succeeded", mergeStatus: "pending" }] },
  });
  return sharing > 0;
}

/**
 * Removes the worktree pools nobody starts runs from: a project archived or gone, pools turned
 * off, or no run took from it and no fill changed it for `idleMs` (its loop stopped, say).
 * Returns how many pools went; one a filler holds now is left to the next pass.
 */
export async function collectPools(opts: { now: Date; idleMs: number }): Promise<number> {
  const root = resolve(dataDir(), "worktrees");
  const ids = (await readdir(root).catch(() => [] as string[])).filter((id) => existsSync(poolDir(id)));
  if (ids.length === 0) return 0;
  const projects = await getDb().project.findMany({ where: { id: { in: ids } }, select: { id: true, archivedAt: true, repoKind: true, repoPath: true } });
  const byId = new Map(projects.map((p) => [p.id, p]));
  let drained = 0;
  for (const id of ids) {
    const project = byId.get(id);
    const changedAt = await poolChangedAt(poolDir(id));
    const idle = !changedAt || opts.now.getTime() - changedAt.getTime() > opts.idleMs;
    if (project && !project.archivedAt && getEnv().WORKTREE_POOL_SIZE > 0 && !idle) continue;
    const repoPath = !project ? null : project.repoKind === "github" ? clonePath(id) : project.repoPath;
    try {
      if ((await drainPool(poolDir(id), repoPath)) !== null) drained++;
    } catch (err) {
      getLogger("worktree-gc").warn({ err: (err as Error).message, projectId: id }, "worktree pool not removed");
    }
  }
  return drained;
}
