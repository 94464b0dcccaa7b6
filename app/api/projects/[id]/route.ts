import { requireProject } from "@/lib/auth/actor";
import { getProjectDetail } from "@/lib/projects/detail";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const project = await requireProject(await requireActor(req), (await params).id);
  return Response.json({ project: await getProjectDetail(project.id) });
});
