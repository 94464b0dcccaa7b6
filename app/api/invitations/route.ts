import { getEnv } from "@/lib/env";
import { createInvitation, listInvitations, type InvitationInput } from "@/lib/teams/invitations";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => Response.json({ invitations: await listInvitations(await requireActor(req)) }));

export const POST = handle(async (req) => {
  const actor = await requireActor(req);
  const created = await createInvitation(actor, (await readJson(req)) as InvitationInput);
  // The public address, not whatever Host this request came in on.
  return Response.json({ ...created, url: new URL(created.path, getEnv().APP_URL).toString() }, { status: 201 });
});
