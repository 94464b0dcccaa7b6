import { getDb, type TeamRole } from "@/lib/db";
import { hashToken } from "@/lib/auth/tokens";
import { AccessError, roleAtLeast } from "@/lib/auth/access";

/** Who is acting: a signed-in person or an API token (a run's token included). */
export interface Actor {
  kind: "user" | "token";
  id: string;
  teamId: string;
  role: TeamRole;
  /** A token scoped to one project may touch only that project. */
  projectId: string | null;
}

export async function actorForUser(userId: string, teamId?: string): Promise<Actor | null> {
  const m = await getDb().membership.findFirst({
    where: { userId, ...(teamId ? { teamId } : {}) },
    orderBy: { createdAt: "asc" },
  });
  return m ? { kind: "user", id: userId, teamId: m.teamId, role: m.role, projectId: null } : null;
}

export async function actorForToken(token: string, now = new Date()): Promise<Actor | null> {
  const row = await getDb().apiToken.findUnique({ where: { tokenHash: hashToken(token) } });
  // A runner token opens the runner API and nothing else (lib/auth/runner-tokens.ts).
  if (!row || row.kind !== "api" || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
  // Last-used is for humans; a minute of precision spares a write per request.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await getDb().apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { kind: "token", id: row.id, teamId: row.teamId, role: row.role, projectId: row.projectId };
}

/**
 * Whether an actor still holds the access it had at `since` (a long-lived stream asks): the person
 * is still a member and has not signed out everywhere since; the token is neither revoked nor expired.
 */
export async function isActorCurrent(actor: Actor, since: Date, now = new Date()): Promise<boolean> {
  const db = getDb();
  if (actor.kind === "token") {
    const row = await db.apiToken.findUnique({ where: { id: actor.id }, select: { revokedAt: true, expiresAt: true } });
    return Boolean(row && !row.revokedAt && (!row.expiresAt || row.expiresAt > now));
  }
  const member = await db.membership.findUnique({
    where: { teamId_userId: { teamId: actor.teamId, userId: actor.id } }, select: { user: { select: { sessionsValidAfter: true } } },
  });
  return Boolean(member && member.user.sessionsValidAfter <= since);
}

export function requireRole(actor: Actor, needed: TeamRole): void {
  if (!roleAtLeast(actor.role, needed)) throw new AccessError(403, `requires the ${needed} role`);
}

/** The project, if the actor may see it; another team's project does not exist for them. */
export async function requireProject(actor: Actor, projectId: string, needed: TeamRole = "viewer") {
  if (actor.projectId && actor.projectId !== projectId) throw new AccessError(404, "project not found");
  const project = await getDb().project.findFirst({ where: { id: projectId, teamId: actor.teamId, archivedAt: null } });
  if (!project) throw new AccessError(404, "project not found");
  requireRole(actor, needed);
  return project;
}

/** Team-wide endpoints (members, invitations, tokens, audit) are closed to project-scoped tokens. */
export function requireTeamScope(actor: Actor): void {
  if (actor.projectId) throw new AccessError(403, "a project-scoped token cannot act on the whole team");
}

/** Only a signed-in person may do this (an API token acts for no one). */
export function requirePerson(actor: Actor): void {
  if (actor.kind !== "user") throw new AccessError(403, "only a signed-in person can do this");
}
