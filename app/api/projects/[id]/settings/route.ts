import { requireProject } from "@/lib/auth/actor";
import { updateSettings } from "@/lib/projects/settings";
import { roleAtLeast } from "@/lib/auth/access";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const PATCH = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  const project = await requireProject(actor, (await params).id, "admin");
  return Response.json({ settings: await updateSettings(project, input, actor, { mayChangeBudgets: roleAtLeast(actor.role, "owner") }) });
});
