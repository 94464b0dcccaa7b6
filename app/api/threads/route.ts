import { requireProject } from "@/lib/auth/actor";
import { createThread } from "@/lib/threads/create";
import { listThreads } from "@/lib/threads/queries";
import { threadInput } from "@/lib/threads/schema";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => {
  const actor = await requireActor(req);
  const projectId = new URL(req.url).searchParams.get("projectId") ?? undefined;
  if (projectId) await requireProject(actor, projectId);
  return Response.json({ threads: await listThreads(actor, projectId) });
});

export const POST = handle(async (req) => {
  const actor = await requireActor(req);
  const input = threadInput.parse(await readJson(req));
  const project = await requireProject(actor, input.projectId, "operator");
  return Response.json({ thread: await createThread(actor, project, input) }, { status: 201 });
});
