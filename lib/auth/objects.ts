import { getDb, type TeamRole } from "@/lib/db";
import { AccessError } from "@/lib/auth/access";
import { requireProject, type Actor } from "@/lib/auth/actor";

// An object of another team, or of a project the actor cannot reach, does not exist for them:
// its 404 names the object asked for, not its project.
const notFound = (what: string) => (err: unknown) => {
  throw err instanceof AccessError && err.status === 404 ? new AccessError(404, `${what} not found`) : err;
};

/** The project of a prompt the actor may reach. */
export async function requirePromptProject(actor: Actor, promptId: string, needed: TeamRole = "viewer") {
  const prompt = await getDb().prompt.findUnique({ where: { id: promptId }, select: { projectId: true } });
  if (!prompt) throw new AccessError(404, "prompt not found");
  return requireProject(actor, prompt.projectId, needed).catch(notFound("prompt"));
}

/** The project of a campaign the actor may reach. */
export async function requireCampaignProject(actor: Actor, campaignId: string, needed: TeamRole = "viewer") {
  const campaign = await getDb().campaign.findUnique({ where: { id: campaignId }, select: { projectId: true } });
  if (!campaign) throw new AccessError(404, "campaign not found");
  return requireProject(actor, campaign.projectId, needed).catch(notFound("campaign"));
}

/** The one check of "may this actor see this run": the run with its project. */
async function requireRun(actor: Actor, runId: string, needed: TeamRole) {
  const run = await getDb().run.findUnique({ where: { id: runId }, select: { id: true, projectId: true, status: true } });
  if (!run) throw new AccessError(404, "run not found");
  const project = await requireProject(actor, run.projectId, needed).catch(notFound("run"));
  return { run, project };
}

export async function requireRunProject(actor: Actor, runId: string, needed: TeamRole = "viewer") {
  return (await requireRun(actor, runId, needed)).project;
}

export async function requireVisibleRun(actor: Actor, runId: string) {
  const { run, project } = await requireRun(actor, runId, "viewer");
  return { ...run, teamId: project.teamId };
}
