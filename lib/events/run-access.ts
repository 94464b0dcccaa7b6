import { getDb } from "@/lib/db";
import { requireProject, type Actor } from "@/lib/auth/actor";
import { AccessError } from "@/lib/teams/membership";

/** The run, if the actor may see its project; another team's run does not exist for them. */
export async function requireVisibleRun(actor: Actor, runId: string) {
  const run = await getDb().run.findFirst({
    where: { id: runId, project: { teamId: actor.teamId } },
    select: { id: true, projectId: true, status: true },
  });
  if (!run) throw new AccessError(404, "run not found");
  const project = await requireProject(actor, run.projectId);
  return { ...run, teamId: project.teamId };
}
