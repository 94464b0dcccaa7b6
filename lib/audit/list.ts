import { getDb } from "@/lib/db";
import { requireRole, requireTeamScope, type Actor } from "@/lib/auth/actor";
import { auditSentence, type AuditArea } from "@/lib/audit/sentence";

export interface AuditRow {
  id: string;
  at: Date;
  actorType: string;
  actorId: string | null;
  actorLabel: string;
  action: string;
  /** The entry as a sentence (who did what). */
  sentence: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

/** The team's audit log, newest first, for admins and owners; `before` pages back by id. */
export async function listAudit(actor: Actor, opts: { before?: string; limit?: number; area?: AuditArea } = {}): Promise<{ events: AuditRow[]; next: string | null }> {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const db = getDb();
  const rows = await db.auditEvent.findMany({
    where: { teamId: actor.teamId, ...(opts.before ? { id: { lt: BigInt(opts.before) } } : {}), ...(opts.area ? { action: { startsWith: `${opts.area}.` } } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const userIds = [...new Set(page.filter((r) => r.actorType === "user" && r.actorId).map((r) => r.actorId!))];
  const tokenIds = [...new Set(page.filter((r) => r.actorType === "token" && r.actorId).map((r) => r.actorId!))];
  const [users, tokens] = await Promise.all([
    db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }),
    db.apiToken.findMany({ where: { id: { in: tokenIds } }, select: { id: true, name: true } }),
  ]);
  const names = new Map<string, string>([...users.map((u) => [u.id, u.email] as const), ...tokens.map((t) => [t.id, `token “${t.name}”`] as const)]);
  return {
    events: page.map((r) => {
      const actorLabel = r.actorType === "system" ? "Ringmaster" : names.get(r.actorId ?? "") ?? `${r.actorType} ${r.actorId ?? ""}`.trim();
      return {
        id: String(r.id), at: r.createdAt, actorType: r.actorType, actorId: r.actorId, actorLabel,
        action: r.action, sentence: auditSentence({ actorLabel, action: r.action, before: r.before, after: r.after }),
        targetType: r.targetType, targetId: r.targetId, before: r.before, after: r.after,
      };
    }),
    next: rows.length > limit ? String(page[page.length - 1].id) : null,
  };
}
