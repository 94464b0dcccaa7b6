import { getThreadDetail, requireThread } from "@/lib/threads/queries";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  await requireThread(await requireActor(req), id);
  return Response.json({ thread: await getThreadDetail(id) });
});
