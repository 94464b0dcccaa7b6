import { requireProject } from "@/lib/auth/actor";
import { OWNER_SETTINGS, updateSettings } from "@/lib/projects/settings";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const PATCH = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  const ownerOnly = typeof input === "object" && input !== null && OWNER_SETTINGS.some((k) => k in input);
  const project = await requireProject(actor, (await params).id, ownerOnly ? "owner" : "admin");
  return Response.json({ settings: await updateSettings(project, input, actor) });
});
