import { requireRunProject } from "@/lib/auth/objects";
import { getRunDetail } from "@/lib/runs/queries";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  await requireRunProject(await requireActor(req), id);
  return Response.json({ run: await getRunDetail(id) });
});
