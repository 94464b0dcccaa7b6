import { z } from "zod";
import { requirePromptProject } from "@/lib/auth/objects";
import { cancelPrompt, retryPrompt } from "@/lib/prompts/update";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };
const body = z.object({ action: z.enum(["cancel", "retry"]) });

export const POST = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  const actor = await requireActor(req);
  const { action } = body.parse(await readJson(req));
  const project = await requirePromptProject(actor, id, "operator");
  await (action === "cancel" ? cancelPrompt(project, id, actor) : retryPrompt(project, id, actor));
  return Response.json({ ok: true });
});
