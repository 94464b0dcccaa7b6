import { createHash, randomBytes } from "node:crypto";
import { getDb, type TeamRole } from "@/lib/db";

// Tokens are shown once and stored as a SHA-256 hash: they are 256 random bits, so a
// slow hash adds nothing, and lookups by hash stay one indexed query.
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new secret to hand out once: the token itself, its display prefix, and the hash to store. */
export function issueSecret(kind: "run" | "api" | "inv" | "runner"): { token: string; prefix: string; tokenHash: string } {
  const token = `rm_${kind}_${randomBytes(32).toString("base64url")}`;
  return { token, prefix: token.slice(0, 12), tokenHash: hashToken(token) };
}

/** A token for one agent process: it can touch only its own project and dies with the run. */
export async function createRunToken(run: { id: string; projectId: string; teamId: string }, ttlMs: number) {
  const { token, prefix, tokenHash } = issueSecret("run");
  await getDb().apiToken.upsert({
    where: { runId: run.id },
    create: {
      teamId: run.teamId, projectId: run.projectId, runId: run.id, name: `run ${run.id}`,
      role: "operator" satisfies TeamRole, tokenHash, prefix, expiresAt: new Date(Date.now() + ttlMs),
    },
    update: { tokenHash, prefix, revokedAt: null, expiresAt: new Date(Date.now() + ttlMs) },
  });
  return token;
}

export async function revokeRunToken(runId: string) {
  await getDb().apiToken.updateMany({ where: { runId, revokedAt: null }, data: { revokedAt: new Date() } });
}
