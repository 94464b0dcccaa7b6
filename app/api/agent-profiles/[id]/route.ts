import { requireRole, requireTeamScope } from "@/lib/auth/actor";
import { deleteProfile, updateProfile } from "@/lib/profiles/profiles";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const PATCH = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  requireTeamScope(actor);
  requireRole(actor, "admin");
  return Response.json(await updateProfile(actor.teamId, (await params).id, input, actor));
});

/** Deletes a profile that no live project uses (409 naming the projects otherwise). */
export const DELETE = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  requireTeamScope(actor);
  requireRole(actor, "admin");
  await deleteProfile(actor.teamId, (await params).id, actor);
  return new Response(null, { status: 204 });
});
