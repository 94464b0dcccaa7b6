import { getDb, Prisma } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";

/** Who did it: a person, an API token (a run's token included), or Ringmaster itself. */
export type AuditBy = Pick<Actor, "kind" | "id"> | { kind: "system"; id?: string | null };

export interface AuditEntry {
  teamId: string;
  by: AuditBy;
  action: string;
  target: { type: string; id?: string | null };
  before?: unknown;
  after?: unknown;
}

type Tx = Pick<Prisma.TransactionClient, "auditEvent">;

const json = (v: unknown) => (v === undefined || v === null ? Prisma.JsonNull : (JSON.parse(JSON.stringify(v)) as Prisma.InputJsonValue));

export const SYSTEM: AuditBy = { kind: "system" };

/**
 * Appends to the team's audit log. Pass the transaction that makes the change, so the
 * change and its record commit together.
 */
export async function recordAudit(entry: AuditEntry, tx: Tx = getDb()): Promise<void> {
  await tx.auditEvent.create({
    data: {
      teamId: entry.teamId,
      actorType: entry.by.kind,
      actorId: entry.by.id ?? null,
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id ?? null,
      before: json(entry.before),
      after: json(entry.after),
    },
  });
}
