import { getDb } from "@/lib/db";
import { requireRole, requireTeamScope, type Actor } from "@/lib/auth/actor";

export interface AuditRow {
  id: string;
  at: Date;
  actorType: string;
  actorId: string | null;
  actorLabel: string;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

/** The team's audit log, newest first, for admins and owners; `before` pages back by id. */
export async function listAudit(actor: Actor, opts: { before?: string; limit?: number } = {}): Promise<{ events: AuditRow[]; next: string | null }> {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const db = getDb();
  const rows = await db.auditEvent.findMany({
    where: { teamId: actor.teamId, ...(opts.before ? { id: { lt: BigInt(opts.before) } } : {}) },
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
    events: page.map((r) => ({
      id: String(r.id), at: r.createdAt, actorType: r.actorType, actorId: r.actorId,
      actorLabel: r.actorType === "system" ? "Ringmaster" : names.get(r.actorId ?? "") ?? `${r.actorType} ${r.actorId ?? ""}`.trim(),
      action: r.action, targetType: r.targetType, targetId: r.targetId, before: r.before, after: r.after,
    })),
    next: rows.length > limit ? String(page[page.length - 1].id) : null,
  };
}
