import { getDb, type TeamRole } from "@/lib/db";

const rank: Record<TeamRole, number> = { viewer: 0, operator: 1, admin: 2, owner: 3 };

export class AccessError extends Error {
  constructor(readonly status: 403 | 404, message: string) {
    super(message);
    this.name = "AccessError";
  }
}

export const roleAtLeast = (role: TeamRole, needed: TeamRole) => rank[role] >= rank[needed];

export interface TeamAccess {
  userId: string;
  teamId: string;
  role: TeamRole;
}

/** The teams a user belongs to, oldest membership first. */
export async function listMemberships(userId: string) {
  return getDb().membership.findMany({
    where: { userId },
    include: { team: true },
    orderBy: { createdAt: "asc" },
  });
}

/**
 * The caller's access to a team. Not a member → 404 (another team's objects do not
 * exist for the caller); member with too low a role → 403.
 */
export async function requireTeamAccess(userId: string, teamId: string, needed: TeamRole = "viewer"): Promise<TeamAccess> {
  const m = await getDb().membership.findUnique({ where: { teamId_userId: { teamId, userId } } });
  if (!m) throw new AccessError(404, "team not found");
  if (!roleAtLeast(m.role, needed)) throw new AccessError(403, `requires the ${needed} role`);
  return { userId, teamId, role: m.role };
}
