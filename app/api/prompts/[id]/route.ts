import { getPromptDetail } from "@/lib/prompts/queries";
import { requirePromptProject } from "@/lib/auth/objects";
import { editPrompt } from "@/lib/prompts/update";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  await requirePromptProject(await requireActor(req), id);
  const { project: _project, ...prompt } = await getPromptDetail(id);
  return Response.json({ prompt });
});

export const PATCH = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  const actor = await requireActor(req);
  const input = await readJson(req);
  const project = await requirePromptProject(actor, id, "operator");
  return Response.json({ prompt: await editPrompt(project, id, input, actor) });
});
