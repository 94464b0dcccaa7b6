import { requireRole, requireTeamScope } from "@/lib/auth/actor";
import { updateProfile } from "@/lib/profiles/profiles";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const PATCH = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  requireTeamScope(actor);
  requireRole(actor, "admin");
  return Response.json({ profile: await updateProfile(actor.teamId, (await params).id, input, actor) });
});
