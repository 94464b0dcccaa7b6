import { requireProject } from "@/lib/auth/actor";
import { createPrompt } from "@/lib/prompts/create";
import { getDb } from "@/lib/db";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const project = await requireProject(await requireActor(req), (await params).id);
  const prompts = await getDb().prompt.findMany({
    where: { projectId: project.id, planningKey: project.planningKey },
    orderBy: { number: "asc" },
  });
  return Response.json({ prompts });
});

export const POST = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  const project = await requireProject(actor, (await params).id, "operator");
  const prompt = await createPrompt(actor, project, input as never);
  return Response.json({ prompt }, { status: 201 });
});
