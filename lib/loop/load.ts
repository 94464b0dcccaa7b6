import { getDb } from "@/lib/db";

export const LIVE_RUN_STATUSES = ["queued", "starting", "running"] as const;

/** Everything one tick reads: the project, its settings, loop state, prompts and live runs. */
export async function loadTickSnapshot(projectId: string) {
  const project = await getDb().project.findUnique({
    where: { id: projectId },
    include: {
      settings: true,
      loopState: true,
      runs: {
        where: { status: { in: [...LIVE_RUN_STATUSES] } },
        select: { id: true, kind: true, status: true, promptId: true, leaseExpiresAt: true, queuedAt: true },
      },
    },
  });
  if (!project?.settings || !project.loopState || project.archivedAt) return null;
  const prompts = await getDb().prompt.findMany({
    where: { projectId, planningKey: project.planningKey },
    select: { id: true, number: true, status: true, priority: true, dependencies: true, approval: true, title: true },
  });
  return { project, settings: project.settings, loopState: project.loopState, runs: project.runs, prompts };
}

export type TickSnapshot = NonNullable<Awaited<ReturnType<typeof loadTickSnapshot>>>;
