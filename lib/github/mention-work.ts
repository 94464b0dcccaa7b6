import { getDb, Prisma } from "@/lib/db";
import { createPrompt } from "@/lib/prompts/create";
import { insertTurnLocked, lockOpenThread } from "@/lib/threads/append";
import { announceThreadChange } from "@/lib/threads/events";
import type { Work } from "@/lib/routing/work";

/** Where a GitHub request came from, kept on every piece of work it becomes. */
export interface GithubOrigin {
  teamId: string;
  projectId: string;
  /** "issue:<id>", "comment:<id>", "review-comment:<id>" or "review:<id>". */
  source: string;
  fullName: string;
  issueNumber: number;
  issueTitle: string;
  /** The comment, review or issue's page. */
  url: string;
  login: string;
}
type Project = { id: string; teamId: string; planningKey: string; name: string };

const by = (o: GithubOrigin) => ({ kind: "system" as const, id: `github:${o.login}` });
const record = (o: GithubOrigin, w: Work) => ({
  teamId: o.teamId, projectId: o.projectId, source: o.source, fullName: o.fullName, issueNumber: o.issueNumber, githubUser: o.login, ...w,
});

export const existingWork = (o: GithubOrigin, target: string) =>
  getDb().githubWork.findUnique({ where: { projectId_source_target: { projectId: o.projectId, source: o.source, target } } });

/** A second writer of the same work lost a race: the first one's work stands. */
export const isDuplicate = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";

/** The agent working on an issue or pull request: the newest one whose prompt from it is not finished. */
export async function issueWork(projectId: string, issueNumber: number) {
  const db = getDb();
  const rows = await db.githubWork.findMany({ where: { projectId, issueNumber, agentId: { not: null }, promptId: { not: null } }, orderBy: { createdAt: "desc" }, take: 20 });
  const live = await db.prompt.findMany({ where: { id: { in: rows.map((r) => r.promptId!) }, status: { in: ["pending", "in_progress"] } }, select: { id: true } });
  const ids = new Set(live.map((p) => p.id));
  return rows.find((r) => ids.has(r.promptId!)) ?? null;
}

/** A prompt for a worker agent, its thread and its origin, committed together or not at all. */
export async function promptFor(o: GithubOrigin, project: Project, agentId: string, title: string, text: string): Promise<Work> {
  const body = `${text}\n\n(Asked on GitHub by @${o.login} in ${o.fullName}#${o.issueNumber}: ${o.url})`;
  let work: Work | null = null;
  await createPrompt(by(o), project, { title: title.slice(0, 200).trim() || `Request from ${o.fullName}#${o.issueNumber}`, body: body.slice(0, 100_000) }, {
    pinnedAgentId: agentId, sourceUrl: o.url,
    alongside: async (tx, prompt) => {
      const thread = await tx.thread.create({ data: { projectId: project.id, promptId: prompt.id, title: prompt.title } });
      work = { target: agentId, agentId, promptId: prompt.id, threadId: thread.id };
      await tx.githubWork.create({ data: { ...record(o, work), notices: true } });
    },
  });
  return work!;
}

/**
 * A person's turn in a Ringmaster thread: the issue's own (the lead's), or the thread of the prompt
 * an agent works on (a follow-up). The first lead turn of an issue opens its thread; a closed one
 * gives the lead a new one.
 */
export async function turnFor(o: GithubOrigin, project: Project, target: { agentId: string | null; threadId: string | null; promptId: string | null }, text: string): Promise<Work> {
  const db = getDb();
  const linked = target.threadId ?? (await db.githubWork.findFirst({
    where: { projectId: o.projectId, issueNumber: o.issueNumber, target: "lead", threadId: { not: null } }, orderBy: { createdAt: "desc" },
  }))?.threadId ?? null;
  const open = linked ? await db.thread.findFirst({ where: { id: linked, projectId: project.id, closedAt: null }, select: { id: true } }) : null;
  const work = await db.$transaction(async (tx) => {
    const threadId = open?.id ?? (await tx.thread.create({ data: { projectId: project.id, title: `GitHub ${o.fullName}#${o.issueNumber}: ${o.issueTitle}`.slice(0, 200) } })).id;
    await lockOpenThread(tx, threadId);
    const turn = await insertTurnLocked(tx, threadId, { actor: "person", actorId: `github:${o.login}`, action: "message", text: `@${o.login} (GitHub ${o.fullName}#${o.issueNumber}): ${text}` });
    const w: Work = { target: target.agentId ?? "lead", agentId: target.agentId, promptId: target.agentId ? target.promptId : null, threadId };
    await tx.githubWork.create({ data: record(o, w) });
    return { ...w, seq: turn.seq };
  }, { maxWait: 30_000, timeout: 30_000 });
  await announceThreadChange(work.threadId!, work.seq);
  return { target: work.target, agentId: work.agentId, promptId: work.promptId, threadId: work.threadId };
}
