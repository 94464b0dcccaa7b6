import { createHash, randomBytes, randomUUID } from "node:crypto";
import { getDb, getPool, prepared, type TeamRole } from "@/lib/db";

// Tokens are shown once and stored as a SHA-256 hash: they are 256 random bits, so a
// slow hash adds nothing, and lookups by hash stay one indexed query.
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new secret to hand out once: the token itself, its display prefix, and the hash to store. */
export function issueSecret(kind: "run" | "api" | "inv" | "runner"): { token: string; prefix: string; tokenHash: string } {
  const token = `rm_${kind}_${randomBytes(32).toString("base64url")}`;
  return { token, prefix: token.slice(0, 12), tokenHash: hashToken(token) };
}

// One statement on every run's start (the pool, not Prisma's query compiler): made, or renewed for
// the run's next attempt (a new secret, not revoked, a new expiry).
const RUN_TOKEN_SQL = `
  INSERT INTO "ApiToken" (id, "teamId", "projectId", "runId", name, role, "tokenHash", prefix, "expiresAt", "createdAt")
  VALUES ($1, $2, $3, $4, $5, $6::"TeamRole", $7, $8, $9::timestamp, $10::timestamp)
  ON CONFLICT ("runId") DO UPDATE SET "tokenHash" = EXCLUDED."tokenHash", prefix = EXCLUDED.prefix, "revokedAt" = NULL, "expiresAt" = EXCLUDED."expiresAt"`;

/** A token for one agent process: it can touch only its own project and dies with the run. */
export async function createRunToken(run: { id: string; projectId: string; teamId: string }, ttlMs: number) {
  const { token, prefix, tokenHash } = issueSecret("run");
  const now = Date.now();
  await getPool().query(prepared(RUN_TOKEN_SQL, [
    randomUUID(), run.teamId, run.projectId, run.id, `run ${run.id}`, "operator" satisfies TeamRole, tokenHash, prefix,
    new Date(now + ttlMs).toISOString(), new Date(now).toISOString(),
  ]));
  return token;
}

export async function revokeRunToken(runId: string) {
  await getDb().apiToken.updateMany({ where: { runId, revokedAt: null }, data: { revokedAt: new Date() } });
}
