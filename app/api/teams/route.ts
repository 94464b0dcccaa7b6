import { handle, readJson, requireActor } from "@/app/api/_lib/handler";
import { requirePerson } from "@/lib/auth/actor";
import { createTeam } from "@/lib/teams/create";
import { listTeamChoices } from "@/lib/teams/current";
import { withTeamCookie } from "@/app/api/_lib/team-cookie";

/** The teams the signed-in person belongs to, the current one marked. */
export const GET = handle(async (req) => {
  const actor = await requireActor(req);
  requirePerson(actor);
  return Response.json({ teams: await listTeamChoices(actor.id, actor.teamId) });
});

/** A new team owned by the person, who switches to it at once. */
export const POST = handle(async (req) => {
  const actor = await requireActor(req);
  requirePerson(actor);
  const team = await createTeam(actor.id, (await readJson(req)) as { name: string });
  return withTeamCookie({ team: { id: team.id, name: team.name } }, team.id, 201);
});
