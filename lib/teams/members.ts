import { getDb, type TeamRole } from "@/lib/db";
import { requireRole, requireTeamScope, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { ControlError } from "@/lib/errors";
import { AccessError, requireMayGrant } from "@/lib/auth/access";

export async function listMembers(actor: Actor) {
  requireTeamScope(actor);
  const rows = await getDb().membership.findMany({
    where: { teamId: actor.teamId }, include: { user: { select: { email: true, name: true } } }, orderBy: { createdAt: "asc" },
  });
  return rows.map((m) => ({ id: m.id, userId: m.userId, email: m.user.email, name: m.user.name, role: m.role, since: m.createdAt }));
}

/** The membership an admin may change: in the team, and an owner's only by an owner. */
async function requireManageable(actor: Actor, membershipId: string) {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const m = await getDb().membership.findFirst({ where: { id: membershipId, teamId: actor.teamId } });
  if (!m) throw new AccessError(404, "member not found");
  requireMayGrant(actor, m.role);
  return m;
}

async function requireAnotherOwner(teamId: string, membershipId: string) {
  const owners = await getDb().membership.count({ where: { teamId, role: "owner", id: { not: membershipId } } });
  if (owners === 0) throw new ControlError("role", "the team needs at least one owner");
}

export async function changeMemberRole(actor: Actor, membershipId: string, role: TeamRole) {
  const m = await requireManageable(actor, membershipId);
  requireMayGrant(actor, role);
  if (m.role === role) return { id: m.id, role };
  if (m.role === "owner") await requireAnotherOwner(actor.teamId, m.id);
  await getDb().membership.update({ where: { id: m.id }, data: { role } });
  await recordAudit({ teamId: actor.teamId, by: actor, action: "member.role_changed", target: { type: "membership", id: m.id }, before: { role: m.role }, after: { role } });
  return { id: m.id, role };
}

export async function removeMember(actor: Actor, membershipId: string) {
  const m = await requireManageable(actor, membershipId);
  if (m.role === "owner") await requireAnotherOwner(actor.teamId, m.id);
  await getDb().membership.delete({ where: { id: m.id } });
  await recordAudit({ teamId: actor.teamId, by: actor, action: "member.removed", target: { type: "membership", id: m.id }, before: { userId: m.userId, role: m.role } });
}
