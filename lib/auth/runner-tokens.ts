import { getDb } from "@/lib/db";
import { hashToken } from "@/lib/auth/tokens";

/** A remote runner, as its token says: which team, and which project when the token is scoped. */
export interface RunnerCaller {
  tokenId: string;
  teamId: string;
  projectId: string | null;
}

/**
 * The runner behind a runner token (rm_runner_…), or null for any other token, a revoked or
 * expired one, or none. API tokens are refused here just as runner tokens are refused by
 * actorForToken: each kind opens only its own door.
 */
export async function runnerForToken(token: string, now = new Date()): Promise<RunnerCaller | null> {
  const db = getDb();
  const row = await db.apiToken.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!row || row.kind !== "runner" || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
  // Runners poll all the time: a minute of precision spares a write per request.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { tokenId: row.id, teamId: row.teamId, projectId: row.projectId };
}

/** Whether a runner token still works (a long-poll asks before it answers with work). */
export async function isRunnerTokenCurrent(tokenId: string, now = new Date()): Promise<boolean> {
  const row = await getDb().apiToken.findUnique({ where: { id: tokenId }, select: { revokedAt: true, expiresAt: true } });
  return Boolean(row && !row.revokedAt && (!row.expiresAt || row.expiresAt > now));
}
