import { z } from "zod";
import { getDb, type InvitationModel as Invitation } from "@/lib/db";
import { hashToken, issueSecret } from "@/lib/auth/tokens";
import { requireRole, requireTeamScope, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { AccessError, requireMayGrant, roleField } from "@/lib/auth/access";
import { wholeNumber } from "@/lib/validation/numbers";

export const invitationInput = z.object({
  role: roleField,
  email: z.union([z.literal(""), z.string().trim().toLowerCase().pipe(z.email("must be a valid email address"))]).optional().transform((v) => v || undefined),
  expiresInHours: wholeNumber(1, 720, " hours").default(72),
});
export type InvitationInput = z.input<typeof invitationInput>;

export type InvitationState = "open" | "expired" | "revoked" | "accepted";

export function invitationState(inv: Pick<Invitation, "acceptedAt" | "revokedAt" | "expiresAt">, now = new Date()): InvitationState {
  if (inv.acceptedAt) return "accepted";
  if (inv.revokedAt) return "revoked";
  return inv.expiresAt <= now ? "expired" : "open";
}

const view = (inv: Invitation, now = new Date()) => ({
  id: inv.id, role: inv.role, email: inv.email, expiresAt: inv.expiresAt, createdAt: inv.createdAt,
  acceptedAt: inv.acceptedAt, revokedAt: inv.revokedAt, state: invitationState(inv, now),
});
export type InvitationView = ReturnType<typeof view>;

/** An invitation link's secret is shown once; only its hash is kept. */
export async function createInvitation(actor: Actor, raw: InvitationInput, now = new Date()) {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const input = invitationInput.parse(raw);
  requireMayGrant(actor, input.role);
  const { token, tokenHash } = issueSecret("inv");
  const inv = await getDb().invitation.create({
    data: {
      teamId: actor.teamId, role: input.role, email: input.email, tokenHash,
      createdById: actor.kind === "user" ? actor.id : null, expiresAt: new Date(now.getTime() + input.expiresInHours * 3_600_000),
    },
  });
  await recordAudit({ teamId: actor.teamId, by: actor, action: "invitation.created", target: { type: "invitation", id: inv.id }, after: { role: inv.role, email: inv.email, expiresAt: inv.expiresAt } });
  return { invitation: view(inv, now), token, path: `/invite/${token}` };
}

export async function listInvitations(actor: Actor, now = new Date()): Promise<InvitationView[]> {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const rows = await getDb().invitation.findMany({ where: { teamId: actor.teamId }, orderBy: { createdAt: "desc" }, take: 100 });
  return rows.map((r) => view(r, now));
}

export async function revokeInvitation(actor: Actor, id: string, now = new Date()): Promise<InvitationView> {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const db = getDb();
  const inv = await db.invitation.findFirst({ where: { id, teamId: actor.teamId } });
  if (!inv) throw new AccessError(404, "invitation not found");
  if (invitationState(inv, now) !== "open") return view(inv, now);
  const updated = await db.invitation.update({ where: { id }, data: { revokedAt: now } });
  await recordAudit({ teamId: actor.teamId, by: actor, action: "invitation.revoked", target: { type: "invitation", id }, before: { state: "open" }, after: { state: "revoked" } });
  return view(updated, now);
}

/** What the invitation page shows: the team and role, or why the link no longer works. */
export async function getInvitation(token: string, now = new Date()) {
  const inv = await getDb().invitation.findUnique({ where: { tokenHash: hashToken(token) }, include: { team: { select: { id: true, name: true } } } });
  return inv ? { ...view(inv, now), team: inv.team } : null;
}
