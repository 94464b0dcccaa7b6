import { requireRunProject } from "@/lib/auth/objects";
import { discardRunWorktree } from "@/lib/runs/discard";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

// Discarding work is not undone by a retry: admins only, like archiving a project.
export const POST = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  const actor = await requireActor(req);
  const project = await requireRunProject(actor, id, "admin");
  await discardRunWorktree(project, id, actor);
  return Response.json({ ok: true });
});
