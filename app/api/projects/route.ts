import { listProjectsWithStatus } from "@/lib/projects/queries";
import { createProject } from "@/lib/projects/create";
import { requireRole, requireTeamScope } from "@/lib/auth/actor";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => {
  const actor = await requireActor(req);
  const projects = await listProjectsWithStatus(actor.teamId);
  return Response.json({ projects: actor.projectId ? projects.filter((p) => p.id === actor.projectId) : projects });
});

export const POST = handle(async (req) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const project = await createProject(actor.teamId, input as never, {}, actor);
  return Response.json({ project: { id: project.id, slug: project.slug } }, { status: 201 });
});
