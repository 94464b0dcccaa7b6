import { getDb } from "@/lib/db";

/** A project with everything its page header shows. */
export async function getProjectDetail(projectId: string) {
  const project = await getDb().project.findUniqueOrThrow({
    where: { id: projectId },
    include: { settings: { include: { executorProfile: true, plannerProfile: true } }, loopState: true },
  });
  const { loopState: ls, settings } = project;
  return {
    id: project.id,
    name: project.name,
    slug: project.slug,
    repoKind: project.repoKind,
    repoPath: project.repoPath,
    github: project.githubOwner ? `${project.githubOwner}/${project.githubRepo}` : null,
    baseBranch: project.baseBranch,
    activeBranch: project.activeBranch,
    planningKey: project.planningKey,
    loop: {
      mode: ls?.mode ?? "stopped",
      lastStatus: ls?.lastStatus ?? null,
      pauseReason: ls?.pauseReason ?? null,
      lastTickAt: ls?.lastTickAt ?? null,
      tickCount: ls?.tickCount ?? 0,
      lastSpawnAt: ls?.lastSpawnAt ?? null,
      planner: { unproductiveSpawns: ls?.emergentSpawnCount ?? 0, lastSpawnAt: ls?.plannerLastSpawnAt ?? null },
    },
    settings,
  };
}

export type ProjectDetail = Awaited<ReturnType<typeof getProjectDetail>>;
