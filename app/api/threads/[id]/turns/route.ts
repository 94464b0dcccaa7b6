import { postMessage } from "@/lib/threads/post";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const POST = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  const actor = await requireActor(req);
  const turn = await postMessage(actor, id, await readJson(req));
  return Response.json({ turn: { seq: turn.seq, status: turn.status, actor: turn.actor, content: turn.content } }, { status: 201 });
});
