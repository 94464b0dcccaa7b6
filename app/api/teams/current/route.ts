import { z } from "zod";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";
import { requirePerson } from "@/lib/auth/actor";
import { requireMembership } from "@/lib/teams/current";
import { withTeamCookie } from "@/app/api/_lib/team-cookie";

const body = z.object({ teamId: z.string().min(1).max(200) });

/** Switches the person's current team; a team they do not belong to answers 404. */
export const PUT = handle(async (req) => {
  const actor = await requireActor(req);
  requirePerson(actor);
  const { teamId } = body.parse(await readJson(req));
  const team = await requireMembership(actor.id, teamId);
  return withTeamCookie({ team }, team.id);
});
