import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { getDb } from "@/lib/db";
import { periodStart } from "@/lib/budgets/periods";

/** Projects of a team with the counts the projects list shows. */
export async function listProjectsWithStatus(teamId: string) {
  const db = getDb();
  const projects = await db.project.findMany({
    where: { teamId, archivedAt: null },
    include: { settings: true, loopState: true },
    orderBy: { createdAt: "asc" },
  });
  const ids = projects.map((p) => p.id);
  const [promptCounts, running, lastActivity, spentToday] = await Promise.all([
    db.prompt.groupBy({ by: ["projectId", "status"], where: { projectId: { in: ids } }, _count: { _all: true } }),
    db.run.groupBy({ by: ["projectId"], where: { projectId: { in: ids }, status: { in: [...LIVE_RUN_STATUSES] } }, _count: { _all: true } }),
    db.activityEvent.groupBy({ by: ["projectId"], where: { projectId: { in: ids } }, _max: { createdAt: true } }),
    db.spendEntry.groupBy({ by: ["projectId"], where: { projectId: { in: ids }, createdAt: { gte: periodStart("day", new Date()) } }, _sum: { costUsd: true } }),
  ]);
  return projects.map((p) => {
    const counts = Object.fromEntries(
      promptCounts.filter((c) => c.projectId === p.id).map((c) => [c.status, c._count._all]),
    ) as Partial<Record<string, number>>;
    return {
      id: p.id,
      name: p.name,
      slug: p.slug,
      repo: p.repoKind === "github" ? `${p.githubOwner}/${p.githubRepo}` : (p.repoPath ?? ""),
      baseBranch: p.baseBranch,
      mode: p.loopState?.mode ?? "stopped",
      parallelEnabled: p.settings?.parallelEnabled ?? true,
      maxParallel: p.settings?.maxParallel ?? 3,
      running: running.find((r) => r.projectId === p.id)?._count._all ?? 0,
      pending: counts.pending ?? 0,
      inProgress: counts.in_progress ?? 0,
      done: counts.done ?? 0,
      failed: counts.failed ?? 0,
      lastActivityAt: lastActivity.find((a) => a.projectId === p.id)?._max.createdAt ?? null,
      spentTodayUsd: spentToday.find((s) => s.projectId === p.id)?._sum.costUsd ?? 0,
      dailyBudgetUsd: p.settings?.dailyBudgetUsd ?? null,
      pauseReason: p.loopState?.pauseReason ?? null,
    };
  });
}

export type ProjectListItem = Awaited<ReturnType<typeof listProjectsWithStatus>>[number];

/** The team's live projects by name, for pickers. */
export function listProjectChoices(teamId: string) {
  return getDb().project.findMany({ where: { teamId, archivedAt: null }, select: { id: true, name: true }, orderBy: { name: "asc" } });
}

/** A project's loop state and settings; the caller has checked access. */
export async function getLoopView(projectId: string) {
  const db = getDb();
  const [state, settings] = await Promise.all([
    db.loopState.findUniqueOrThrow({ where: { projectId } }),
    db.projectSettings.findUniqueOrThrow({ where: { projectId } }),
  ]);
  return { state, settings };
}
