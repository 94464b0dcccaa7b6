import { requirePromptProject } from "@/lib/auth/objects";
import { getPromptThread } from "@/lib/threads/prompt-thread";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

/** Every prompt has a thread: the first read opens it. */
export const GET = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  await requirePromptProject(await requireActor(req), id);
  return Response.json({ thread: await getPromptThread(id) });
});
