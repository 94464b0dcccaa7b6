import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { getDb, type Prisma } from "@/lib/db";
import { diffSummary } from "@/lib/git";

const runListSelect = {
  id: true, kind: true, status: true, attempt: true, adapter: true, model: true, promptId: true,
  queuedAt: true, startedAt: true, finishedAt: true, leaseExpiresAt: true, heartbeatAt: true,
  exitCode: true, branch: true, mergeStatus: true, costUsd: true, workerId: true,
  prompt: { select: { number: true, title: true } },
} satisfies Prisma.RunSelect;

export async function listRuns(projectId: string, opts: { live?: boolean; take?: number } = {}) {
  return getDb().run.findMany({
    where: { projectId, ...(opts.live ? { status: { in: [...LIVE_RUN_STATUSES] } } : {}) },
    select: runListSelect,
    orderBy: { queuedAt: "desc" },
    take: Math.min(opts.take ?? 50, 200),
  });
}

/** A run with what its page shows; the diff is read from the worktree while it exists. */
export async function getRunDetail(runId: string) {
  const run = await getDb().run.findUnique({
    where: { id: runId },
    include: { prompt: { select: { id: true, number: true, title: true } }, pullRequest: { select: { url: true, number: true, state: true } }, project: { select: { id: true, name: true, teamId: true } } },
  });
  if (!run) return null;
  const diff = run.worktreePath && run.baseSha ? await diffSummary(run.worktreePath, run.baseSha).catch(() => null) : null;
  return { ...run, diff };
}
