import { requireRunProject } from "@/lib/auth/objects";
import { cancelRun } from "@/lib/runs/cancel";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const POST = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  const actor = await requireActor(req);
  const project = await requireRunProject(actor, id, "operator");
  await cancelRun(project, id, actor);
  return Response.json({ ok: true });
});
