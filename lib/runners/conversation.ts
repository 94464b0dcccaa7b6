import { Prisma, type AgentModel as Agent } from "@/lib/db";
import { BudgetRefusal, reserveForRun } from "@/lib/budgets/reserve";

type Tx = Prisma.TransactionClient;

export interface ConversationClaim {
  type: "unread_mention" | "worker_finished";
  /** The run the agent now holds: a conversation run on the thread, answered like the lead's. */
  runId: string;
  /** worker_finished: the worker's run that ended. */
  finishedRunId?: string;
}

interface Lease { now: Date; leaseTtlMs: number }

const scope = (agent: Agent) => Prisma.sql`p."teamId" = ${agent.teamId} AND p."archivedAt" IS NULL AND (${agent.projectId}::text IS NULL OR p.id = ${agent.projectId})`;

/**
 * A run on a thread, held by the agent from the start: it reads the thread up to its newest turn
 * and its answer is posted there when it succeeds (lib/threads/lead-run.ts). Returns null when
 * the project has no profile to run it or its budget cannot take it (the trigger stays unread).
 */
async function conversationRun(tx: Tx, agent: Agent, threadId: string, projectId: string, { now, leaseTtlMs }: Lease): Promise<string | null> {
  const project = await tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { settings: { select: { plannerProfile: true, executorProfile: true } } } });
  const profile = project.settings?.plannerProfile ?? project.settings?.executorProfile;
  if (!profile) return null;
  const reservedUsd = await reserveForRun(tx, projectId, profile.id, now).catch((err) => {
    if (err instanceof BudgetRefusal) return "refused" as const;
    throw err;
  });
  if (reservedUsd === "refused") return null;
  const last = await tx.turn.aggregate({ where: { threadId }, _max: { seq: true } });
  const run = await tx.run.create({
    data: {
      projectId, kind: "lead", threadId, threadSeq: last._max.seq ?? 0, agentProfileId: profile.id, adapter: profile.adapter, model: profile.model,
      queuedAt: now, reservedUsd, remote: true, status: "starting", remoteAgentId: agent.id, workerId: `runner:${agent.id}`,
      leaseExpiresAt: new Date(now.getTime() + leaseTtlMs), heartbeatAt: now,
    },
  });
  return run.id;
}

/**
 * The agent's oldest unread @mention: every unread mention of it in that thread is read by the
 * one run (it is given the whole thread). The turns are locked, so two polls never both take them.
 */
export async function claimMention(tx: Tx, agent: Agent, lease: Lease): Promise<ConversationClaim | null> {
  const [turn] = await tx.$queryRaw<{ threadId: string; projectId: string }[]>`
    SELECT t."threadId", th."projectId" FROM "Turn" t
    JOIN "Thread" th ON th.id = t."threadId" AND th."closedAt" IS NULL
    JOIN "Project" p ON p.id = th."projectId" AND ${scope(agent)}
    WHERE t."mentionsAgentId" = ${agent.id} AND t."mentionReadAt" IS NULL
    ORDER BY t."createdAt", t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED`;
  if (!turn) return null;
  const runId = await conversationRun(tx, agent, turn.threadId, turn.projectId, lease);
  if (!runId) return null;
  await tx.turn.updateMany({ where: { threadId: turn.threadId, mentionsAgentId: agent.id, mentionReadAt: null }, data: { mentionReadAt: lease.now } });
  return { type: "unread_mention", runId };
}

/**
 * A lead's "a worker finished a task": the oldest run of a remote worker agent that ended since
 * the lead registered and that no lead has heard of. Marking it and taking it is one locked
 * update, so each finished run is handed to exactly one lead, once.
 */
export async function claimWorkerFinished(tx: Tx, agent: Agent, lease: Lease): Promise<ConversationClaim | null> {
  const [finished] = await tx.$queryRaw<{ id: string; projectId: string; promptId: string; title: string }[]>`
    SELECT r.id, r."projectId", r."promptId", q.title FROM "Run" r
    JOIN "Project" p ON p.id = r."projectId" AND ${scope(agent)}
    JOIN "Prompt" q ON q.id = r."promptId"
    JOIN "Agent" w ON w.id = r."remoteAgentId" AND w.role = 'worker'
    WHERE r.remote AND r.kind = 'executor' AND r."leadNotifiedAt" IS NULL
      AND r.status IN ('succeeded', 'failed', 'timed_out', 'cancelled') AND r."finishedAt" >= ${agent.createdAt}
    ORDER BY r."finishedAt", r.id LIMIT 1 FOR UPDATE OF r SKIP LOCKED`;
  if (!finished) return null;
  // The prompt's conversation (made once: Thread.promptId is unique).
  const thread = await tx.thread.upsert({ where: { promptId: finished.promptId }, create: { projectId: finished.projectId, promptId: finished.promptId, title: finished.title }, update: {} });
  const runId = await conversationRun(tx, agent, thread.id, finished.projectId, lease);
  if (!runId) return null;
  await tx.run.update({ where: { id: finished.id }, data: { leadNotifiedAt: lease.now } });
  return { type: "worker_finished", runId, finishedRunId: finished.id };
}
