import { getDb } from "@/lib/db";
import { requireRole, requireTeamScope, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { AccessError } from "@/lib/auth/access";
import { encryptSecret } from "@/lib/crypto/secrets";
import { credentialInput, credentialName, type CredentialInput } from "@/lib/credentials/schema";

// Agent credentials are the team admins': write-only, so no answer ever carries a value back.
function requireAdmin(actor: Actor) {
  requireTeamScope(actor);
  requireRole(actor, "admin");
}

const view = (c: { name: string; last4: string; updatedAt: Date }) => ({ name: c.name, last4: c.last4, updatedAt: c.updatedAt });

export async function listCredentials(actor: Actor) {
  requireAdmin(actor);
  const rows = await getDb().agentCredential.findMany({ where: { teamId: actor.teamId }, orderBy: { name: "asc" } });
  return rows.map(view);
}

/** Stores (or replaces) a credential, encrypted at rest. */
export async function setCredential(actor: Actor, raw: CredentialInput) {
  requireAdmin(actor);
  const { name, value } = credentialInput.parse(raw);
  const data = { encryptedValue: encryptSecret(value), last4: value.slice(-4), updatedById: actor.id };
  return getDb().$transaction(async (tx) => {
    const before = await tx.agentCredential.findUnique({ where: { teamId_name: { teamId: actor.teamId, name } } });
    const row = await tx.agentCredential.upsert({ where: { teamId_name: { teamId: actor.teamId, name } }, create: { teamId: actor.teamId, name, ...data }, update: data });
    // The audit names the credential and its last 4 characters, never the value.
    await recordAudit({ teamId: actor.teamId, by: actor, action: before ? "credential.replaced" : "credential.created", target: { type: "agentCredential", id: row.id },
      before: before ? { name, last4: before.last4 } : null, after: { name, last4: row.last4 } }, tx);
    return view(row);
  });
}

export async function deleteCredential(actor: Actor, rawName: string): Promise<void> {
  requireAdmin(actor);
  const name = credentialName.parse(rawName);
  await getDb().$transaction(async (tx) => {
    const row = await tx.agentCredential.findUnique({ where: { teamId_name: { teamId: actor.teamId, name } } });
    if (!row) throw new AccessError(404, "credential not found");
    await tx.agentCredential.delete({ where: { id: row.id } });
    await recordAudit({ teamId: actor.teamId, by: actor, action: "credential.deleted", target: { type: "agentCredential", id: row.id }, before: { name, last4: row.last4 } }, tx);
  });
}
