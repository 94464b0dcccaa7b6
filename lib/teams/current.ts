import { getDb, type TeamRole } from "@/lib/db";
import { AccessError } from "@/lib/auth/access";
import { actorForUser, type Actor } from "@/lib/auth/actor";

/** The cookie that holds the team a signed-in person works in; only ever honoured for a team they belong to. */
export const TEAM_COOKIE = "rm_team";

export function teamIdFromCookieHeader(header: string | null): string | undefined {
  const match = /(?:^|;\s*)rm_team=([^;]+)/.exec(header ?? "");
  return match ? decodeURIComponent(match[1]) : undefined;
}

export interface TeamChoice { id: string; name: string; role: TeamRole; current: boolean }

/** The person's teams, the chosen one marked current (the oldest membership when none or a foreign one is chosen). */
export async function listTeamChoices(userId: string, chosen?: string): Promise<TeamChoice[]> {
  const rows = await getDb().membership.findMany({ where: { userId }, include: { team: { select: { id: true, name: true } } }, orderBy: { createdAt: "asc" } });
  const current = rows.find((m) => m.teamId === chosen)?.teamId ?? rows[0]?.teamId;
  return rows.map((m) => ({ id: m.team.id, name: m.team.name, role: m.role, current: m.teamId === current }));
}

/** The team to switch to, if the person belongs to it; another team does not exist for them. */
export async function requireMembership(userId: string, teamId: string) {
  const m = await getDb().membership.findFirst({ where: { userId, teamId }, include: { team: { select: { id: true, name: true } } } });
  if (!m) throw new AccessError(404, "team not found");
  return m.team;
}

/** A signed-in person acting in the team their cookie names; one they left falls back to their first team. */
export async function actorForPerson(userId: string, cookieHeader: string | null): Promise<Actor | null> {
  const chosen = teamIdFromCookieHeader(cookieHeader);
  return (chosen ? await actorForUser(userId, chosen) : null) ?? actorForUser(userId);
}
