import { getDb } from "@/lib/db";
import { recordAudit } from "@/lib/audit/record";
import { requirePerson, type Actor } from "@/lib/auth/actor";

/** Ends every session of the person, this one included (the jwt callback checks the instant). */
export async function signOutEverywhere(actor: Actor, now = new Date()): Promise<void> {
  requirePerson(actor);
  await getDb().user.update({ where: { id: actor.id }, data: { sessionsValidAfter: now } });
  await recordAudit({ teamId: actor.teamId, by: actor, action: "account.signed_out_everywhere", target: { type: "user", id: actor.id } });
}
