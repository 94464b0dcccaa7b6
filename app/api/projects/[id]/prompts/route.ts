import { requireProject } from "@/lib/auth/actor";
import { createPrompt } from "@/lib/prompts/create";
import { listPrompts } from "@/lib/prompts/queries";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const project = await requireProject(await requireActor(req), (await params).id);
  return Response.json({ prompts: await listPrompts(project) });
});

export const POST = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  const project = await requireProject(actor, (await params).id, "operator");
  const prompt = await createPrompt(actor, project, input as never);
  return Response.json({ prompt }, { status: 201 });
});
