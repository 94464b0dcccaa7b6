import { requireProject } from "@/lib/auth/actor";
import { getProjectDetail } from "@/lib/projects/detail";
import { updateProject, archiveProject } from "@/lib/projects/update";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const project = await requireProject(await requireActor(req), (await params).id);
  return Response.json({ project: await getProjectDetail(project.id) });
});

export const PATCH = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  const project = await requireProject(actor, (await params).id, "admin");
  const updated = await updateProject(project, input, actor);
  return Response.json({ project: { id: updated.id, name: updated.name, repoPath: updated.repoPath, baseBranch: updated.baseBranch } });
});

export const DELETE = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const project = await requireProject(actor, (await params).id, "admin");
  await archiveProject(project, actor);
  return new Response(null, { status: 204 });
});
