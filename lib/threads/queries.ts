import { getDb, type TeamRole } from "@/lib/db";
import { AccessError } from "@/lib/auth/access";
import { requireProject, type Actor } from "@/lib/auth/actor";

/** The thread with its project, if the actor may reach it; another team's thread is 404. */
export async function requireThread(actor: Actor, threadId: string, needed: TeamRole = "viewer") {
  const thread = await getDb().thread.findUnique({ where: { id: threadId } });
  if (!thread) throw new AccessError(404, "thread not found");
  const project = await requireProject(actor, thread.projectId, needed).catch((err) => {
    throw err instanceof AccessError && err.status === 404 ? new AccessError(404, "thread not found") : err;
  });
  return { thread, project };
}

export const turnView = {
  seq: true, actor: true, actorId: true, action: true, content: true, target: true, status: true, createdAt: true, deliveredAt: true, evaluatedAt: true,
} as const;

/** A thread as a page shows it: its header and every turn in order. */
export async function getThreadDetail(threadId: string) {
  return getDb().thread.findUniqueOrThrow({
    where: { id: threadId },
    select: {
      id: true, projectId: true, promptId: true, title: true, waitingForUser: true, closedAt: true, createdAt: true, updatedAt: true,
      project: { select: { name: true } }, prompt: { select: { number: true, title: true } },
      turns: { orderBy: { seq: "asc" }, select: turnView },
    },
  });
}

export type ThreadDetail = Awaited<ReturnType<typeof getThreadDetail>>;
export type TurnView = ThreadDetail["turns"][number];

/** The threads of the actor's team (of one project for a project-scoped token), newest first. */
export async function listThreads(actor: Actor, projectId?: string) {
  const scope = actor.projectId ?? projectId;
  const rows = await getDb().thread.findMany({
    where: { project: { teamId: actor.teamId, archivedAt: null }, ...(scope ? { projectId: scope } : {}) },
    orderBy: { updatedAt: "desc" },
    take: 200,
    select: {
      id: true, projectId: true, promptId: true, title: true, waitingForUser: true, closedAt: true, updatedAt: true,
      project: { select: { name: true } },
      turns: { orderBy: { seq: "desc" }, take: 1, select: turnView },
      _count: { select: { turns: { where: { status: { not: "evaluated" } } } } },
    },
  });
  return rows.map(({ turns, _count, ...t }) => ({ ...t, lastTurn: turns[0] ?? null, unevaluated: _count.turns }));
}

export type ThreadSummary = Awaited<ReturnType<typeof listThreads>>[number];

/** The projects the actor may open a thread in (a project-scoped token: its own only). */
export function threadProjects(actor: Actor) {
  return getDb().project.findMany({
    where: { teamId: actor.teamId, archivedAt: null, ...(actor.projectId ? { id: actor.projectId } : {}) },
    orderBy: { name: "asc" }, select: { id: true, name: true },
  });
}
