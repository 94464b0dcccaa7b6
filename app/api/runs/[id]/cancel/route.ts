import { requireRunProject } from "@/lib/projects/access";
import { cancelRun } from "@/lib/runs/cancel";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const POST = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  const project = await requireRunProject(await requireActor(req), id, "operator");
  await cancelRun(project, id);
  return Response.json({ ok: true });
});
