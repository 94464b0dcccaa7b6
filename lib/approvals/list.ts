import { getDb, type ApprovalKind, type ApprovalState } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";

/** Resolves "user:<id>" / "token:<id>" / "system" and bare user or token ids to names people know. */
async function labels(refs: string[]): Promise<Map<string, string>> {
  const ids = refs.map((r) => r.replace(/^(user|token):/, ""));
  const [users, tokens] = await Promise.all([
    getDb().user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } }),
    getDb().apiToken.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, runId: true } }),
  ]);
  const out = new Map<string, string>([["system", "Ringmaster"]]);
  for (const u of users) out.set(u.id, u.email);
  for (const t of tokens) out.set(t.id, t.runId ? "planner agent" : `token “${t.name}”`);
  return new Map(refs.map((r) => [r, out.get(r) ?? out.get(r.replace(/^(user|token):/, "")) ?? r]));
}

/** The inbox: what waits (or was decided), with the prompt or pull request and who asked. */
export async function listApprovals(actor: Actor, opts: { status?: ApprovalState; limit?: number; projectId?: string; kind?: ApprovalKind } = {}) {
  const projectId = actor.projectId ?? opts.projectId;
  const rows = await getDb().approval.findMany({
    where: {
      teamId: actor.teamId, ...(projectId ? { projectId } : {}), ...(opts.status ? { status: opts.status } : {}), ...(opts.kind ? { kind: opts.kind } : {}),
      // Nothing of an archived project waits: its open items were closed with it.
      ...(opts.status === "pending" ? { project: { archivedAt: null } } : {}),
    },
    include: {
      project: { select: { id: true, name: true } },
      prompt: { select: { id: true, number: true, title: true, body: true, status: true, origin: true } },
      pullRequest: { select: { id: true, number: true, url: true, headBranch: true, fixCycles: true } },
    },
    orderBy: opts.status === "pending" ? { createdAt: "asc" } : { createdAt: "desc" },
    take: Math.min(opts.limit ?? 100, 200),
  });
  const names = await labels([...new Set(rows.flatMap((r) => [r.requestedBy, ...(r.decidedById ? [r.decidedById] : [])]))]);
  return rows.map((r) => ({
    id: r.id, kind: r.kind, status: r.status, project: r.project, createdAt: r.createdAt, decidedAt: r.decidedAt, comment: r.comment,
    prompt: r.prompt ? { ...r.prompt, body: r.prompt.body.slice(0, 600) } : null,
    pullRequest: r.pullRequest,
    requestedBy: names.get(r.requestedBy) ?? r.requestedBy,
    decidedBy: r.decidedById ? names.get(r.decidedById) ?? r.decidedById : null,
  }));
}
export type ApprovalItem = Awaited<ReturnType<typeof listApprovals>>[number];

/** How many decisions wait in the actor's view (the navigation's badge). */
export function countPendingApprovals(actor: Actor): Promise<number> {
  return getDb().approval.count({
    where: { teamId: actor.teamId, status: "pending", project: { archivedAt: null }, ...(actor.projectId ? { projectId: actor.projectId } : {}) },
  });
}
