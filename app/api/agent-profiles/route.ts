import { requireRole, requireTeamScope } from "@/lib/auth/actor";
import { createProfile, listProfiles } from "@/lib/profiles/profiles";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => {
  const actor = await requireActor(req);
  return Response.json({ profiles: await listProfiles(actor.teamId, actor.projectId) });
});

export const POST = handle(async (req) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  requireTeamScope(actor);
  requireRole(actor, "admin");
  // warnings: { field: sentence } of what was saved but may not run (a CLI missing on this server).
  return Response.json(await createProfile(actor.teamId, input, actor), { status: 201 });
});
