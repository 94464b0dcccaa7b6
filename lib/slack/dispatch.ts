import { getDb, Prisma } from "@/lib/db";
import { createPrompt } from "@/lib/prompts/create";
import { insertTurnLocked, lockOpenThread } from "@/lib/threads/append";
import { announceThreadChange } from "@/lib/threads/events";
import type { Work } from "@/lib/routing/work";

/** Where a message came from, kept on every piece of work it becomes. */
export interface SlackOrigin { teamId: string; channelId: string; messageTs: string; threadTs: string; slackUserId: string; userName: string; permalink: string | null }
type Project = { id: string; teamId: string; planningKey: string; name: string };
type Tx = Prisma.TransactionClient;

const by = (o: SlackOrigin) => ({ kind: "system" as const, id: `slack:${o.slackUserId}` });
const keyOf = (o: SlackOrigin, target: string) => ({ teamId_channelId_messageTs_target: { teamId: o.teamId, channelId: o.channelId, messageTs: o.messageTs, target } });
const record = (o: SlackOrigin, projectId: string, w: Work) => ({
  teamId: o.teamId, channelId: o.channelId, messageTs: o.messageTs, threadTs: o.threadTs, slackUserId: o.slackUserId, projectId, ...w,
});

export async function existingWork(o: SlackOrigin, target: string) {
  return getDb().slackWork.findUnique({ where: keyOf(o, target) });
}

/** The first work in a Slack thread decides its Ringmaster thread; later work leaves the link. */
async function link(tx: Tx, o: SlackOrigin, threadId: string) {
  await tx.slackThread.createMany({ data: [{ teamId: o.teamId, channelId: o.channelId, threadTs: o.threadTs, threadId }], skipDuplicates: true });
}

/** A prompt for a worker agent, its thread and its origin, committed together or not at all. */
export async function promptFor(o: SlackOrigin, project: Project, agentId: string, text: string): Promise<Work> {
  const title = text.split("\n")[0].slice(0, 120).trim() || "Request from Slack";
  const body = `${text}\n\n(Asked in Slack by ${o.userName}, channel ${o.channelId}, thread ${o.threadTs}.)`;
  let work: Work | null = null;
  await createPrompt(by(o), project, { title, body: body.slice(0, 100_000) }, {
    pinnedAgentId: agentId, sourceUrl: o.permalink,
    alongside: async (tx, prompt) => {
      const thread = await tx.thread.create({ data: { projectId: project.id, promptId: prompt.id, title: prompt.title } });
      work = { target: agentId, agentId, promptId: prompt.id, threadId: thread.id };
      await tx.slackWork.create({ data: { ...record(o, project.id, work), notices: true } });
      await link(tx, o, thread.id);
    },
  });
  return work!;
}

/**
 * A turn in a Ringmaster thread: the Slack thread's own (the lead's), or the thread of the prompt
 * an agent works on (a follow-up). A closed or missing thread gives the lead a new one.
 */
export async function turnFor(o: SlackOrigin, project: Project, target: { agentId: string | null; threadId: string | null; promptId: string | null }, text: string): Promise<Work> {
  const db = getDb();
  const linked = target.threadId ?? (await db.slackThread.findUnique({ where: { teamId_channelId_threadTs: { teamId: o.teamId, channelId: o.channelId, threadTs: o.threadTs } } }))?.threadId ?? null;
  const open = linked ? await db.thread.findFirst({ where: { id: linked, projectId: project.id, closedAt: null }, select: { id: true } }) : null;
  const work = await db.$transaction(async (tx) => {
    let threadId = open?.id;
    if (!threadId) {
      threadId = (await tx.thread.create({ data: { projectId: project.id, title: `Slack: ${text.split("\n")[0].slice(0, 100)}` } })).id;
      await tx.slackThread.upsert({
        where: { teamId_channelId_threadTs: { teamId: o.teamId, channelId: o.channelId, threadTs: o.threadTs } },
        create: { teamId: o.teamId, channelId: o.channelId, threadTs: o.threadTs, threadId }, update: { threadId },
      });
    }
    await lockOpenThread(tx, threadId);
    const turn = await insertTurnLocked(tx, threadId, { actor: "person", actorId: `slack:${o.slackUserId}`, action: "message", text: `${o.userName} (Slack): ${text}` });
    const w: Work = { target: target.agentId ?? "lead", agentId: target.agentId, promptId: target.agentId ? target.promptId : null, threadId };
    await tx.slackWork.create({ data: record(o, project.id, w) });
    return { ...w, seq: turn.seq };
  }, { maxWait: 30_000, timeout: 30_000 });
  await announceThreadChange(work.threadId!, work.seq);
  return { target: work.target, agentId: work.agentId, promptId: work.promptId, threadId: work.threadId };
}
