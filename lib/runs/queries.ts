import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { runCeilings } from "@/lib/spend/ceilings";
import { getDb, type Prisma } from "@/lib/db";
import { getRunDiff } from "@/lib/runs/diff";
import { repoGitUrl } from "@/lib/github/repo";
import { webLinks } from "@/lib/runs/web-links";

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

/** A run with what its page shows: its kept diff, or the live one of a run still at work. */
export async function getRunDetail(runId: string) {
  const run = await getDb().run.findUnique({
    where: { id: runId },
    include: {
      prompt: { select: { id: true, number: true, title: true } }, pullRequest: { select: { url: true, number: true, state: true } },
      project: { select: { id: true, name: true, teamId: true, repoKind: true, githubOwner: true, githubRepo: true, githubConnectionId: true, settings: true } }, agentProfile: true,
    },
  });
  if (!run) return null;
  const { agentProfile, project: { settings, ...project }, ...rest } = run;
  // The limits this run is held to, shown beside what it has used.
  const ceilings = agentProfile && settings ? runCeilings(agentProfile, settings) : null;
  const cached = await getDb().spendEntry.aggregate({ where: { runId }, _sum: { cachedTokens: true, cacheWriteTokens: true } });
  return {
    ...rest, project, diff: await getRunDiff(run), links: githubLinks(run), ceilings,
    cachedTokens: cached._sum.cachedTokens ?? 0, cacheWriteTokens: cached._sum.cacheWriteTokens ?? 0,
  };
}

// Links to the work on GitHub, for a connected GitHub project only.
function githubLinks(run: { branch: string | null; commitSha: string | null; mergedSha: string | null; project: { repoKind: string; githubOwner: string | null; githubRepo: string | null; githubConnectionId: string | null } }) {
  const { project } = run;
  if (project.repoKind !== "github" || !project.githubConnectionId || !project.githubOwner || !project.githubRepo) return null;
  return webLinks(repoGitUrl(project.githubOwner, project.githubRepo), run.branch, run.mergedSha ?? run.commitSha);
}
