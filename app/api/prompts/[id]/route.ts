import { getDb } from "@/lib/db";
import { requirePromptProject } from "@/lib/projects/access";
import { editPrompt } from "@/lib/prompts/update";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  await requirePromptProject(await requireActor(req), id);
  const prompt = await getDb().prompt.findUniqueOrThrow({
    where: { id },
    include: {
      runs: { orderBy: { queuedAt: "desc" }, select: { id: true, status: true, attempt: true, kind: true, queuedAt: true, finishedAt: true, mergeStatus: true, exitCode: true, error: true } },
      pullRequests: { select: { id: true, number: true, url: true, state: true } },
      threads: { include: { turns: { orderBy: { seq: "asc" } } } },
    },
  });
  return Response.json({ prompt });
});

export const PATCH = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  const actor = await requireActor(req);
  const input = await readJson(req);
  const project = await requirePromptProject(actor, id, "operator");
  return Response.json({ prompt: await editPrompt(project, id, input, actor) });
});
