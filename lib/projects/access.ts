import { getDb, type TeamRole } from "@/lib/db";
import { requireProject, type Actor } from "@/lib/auth/actor";
import { AccessError } from "@/lib/teams/membership";

/** The project of a prompt the actor may reach; another team's prompt answers 404. */
export async function requirePromptProject(actor: Actor, promptId: string, needed: TeamRole = "viewer") {
  const prompt = await getDb().prompt.findUnique({ where: { id: promptId }, select: { projectId: true } });
  if (!prompt) throw new AccessError(404, "prompt not found");
  return requireProject(actor, prompt.projectId, needed).catch((err) => {
    throw err instanceof AccessError && err.status === 404 ? new AccessError(404, "prompt not found") : err;
  });
}

export async function requireRunProject(actor: Actor, runId: string, needed: TeamRole = "viewer") {
  const run = await getDb().run.findUnique({ where: { id: runId }, select: { projectId: true } });
  if (!run) throw new AccessError(404, "run not found");
  return requireProject(actor, run.projectId, needed).catch((err) => {
    throw err instanceof AccessError && err.status === 404 ? new AccessError(404, "run not found") : err;
  });
}
