import { requireProject } from "@/lib/auth/actor";
import { importPromptFiles } from "@/lib/prompts/import";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const POST = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  const project = await requireProject(actor, (await params).id, "operator");
  return Response.json({ imported: await importPromptFiles(project, input, actor) }, { status: 201 });
});
