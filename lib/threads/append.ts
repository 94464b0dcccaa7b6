import { z } from "zod";
import { getDb, type Prisma, type TurnModel as Turn } from "@/lib/db";
import { ControlError } from "@/lib/errors";
import { AccessError } from "@/lib/auth/access";
import { announceThreadChange } from "@/lib/threads/events";
import { mentionedAgentId, wakeMentioned } from "@/lib/threads/mentions";
import { turnText, type TurnAction, type TurnActor } from "@/lib/threads/schema";

export interface NewTurn {
  actor: TurnActor;
  /** The person's user id, the run id, the monitor's name. */
  actorId?: string | null;
  action?: TurnAction;
  text: string;
  /** What a route or verify turn is about; a verify names its own target, not the thread's. */
  target?: string | null;
  /** A worker (agent profile or run) a route turn went to. */
  routedTo?: string | null;
}

export interface AppendOptions {
  /**
   * A monitor's confirm (CI green, PR merged) is dropped while its previous confirm in this thread
   * is still unevaluated: the lead has not read the first one yet, a second says nothing new.
   */
  skipIfPending?: boolean;
}

const input = z.object({ text: turnText });

type Tx = Prisma.TransactionClient;

/** Locks the thread row for the transaction; refuses a missing (404) or closed (409) thread. */
export async function lockOpenThread(tx: Tx, threadId: string) {
  const [thread] = await tx.$queryRaw<{ closedAt: Date | null; waitingForUser: boolean; lastProcessedAt: Date | null; idleRunAt: Date | null; projectId: string }[]>`
    SELECT "closedAt", "waitingForUser", "lastProcessedAt", "idleRunAt", "projectId" FROM "Thread" WHERE id = ${threadId} FOR UPDATE`;
  if (!thread) throw new AccessError(404, "thread not found");
  if (thread.closedAt) throw new ControlError("thread", "is closed");
  return thread;
}

/** Adds a turn inside a transaction that already holds the thread's lock (lockOpenThread). */
export async function insertTurnLocked(tx: Tx, threadId: string, turn: NewTurn) {
  const { text } = input.parse({ text: turn.text });
  const last = await tx.turn.aggregate({ where: { threadId }, _max: { seq: true } });
  const { projectId } = await tx.thread.findUniqueOrThrow({ where: { id: threadId }, select: { projectId: true } });
  const mentionsAgentId = turn.actor === "system" ? null : await mentionedAgentId(tx, projectId, text, turn);
  const row = await tx.turn.create({
    data: {
      threadId, seq: (last._max.seq ?? 0) + 1, actor: turn.actor, actorId: turn.actorId ?? null,
      action: turn.action ?? "message", content: text, target: turn.target ?? null, routedToAgentId: turn.routedTo ?? null, mentionsAgentId,
      waitingFor: turn.action === "wait" ? "person" : null,
    },
  });
  // A person's word ends a wait; a wait turn starts one. Either way the thread was touched.
  const waiting = turn.action === "wait" ? true : turn.actor === "person" ? false : undefined;
  await tx.thread.update({ where: { id: threadId }, data: { updatedAt: new Date(), ...(waiting === undefined ? {} : { waitingForUser: waiting }) } });
  return row;
}

/**
 * Adds a turn with the thread's next sequence number, status `sent`. The thread row is locked
 * for the transaction, so concurrent writers (any number of processes) get distinct, increasing
 * numbers and nobody writes into a thread that is being closed. Returns null when skipped.
 */
export async function appendTurn(threadId: string, turn: NewTurn, opts: AppendOptions = {}): Promise<Turn | null> {
  input.parse({ text: turn.text });
  const created = await getDb().$transaction(async (tx) => {
    await lockOpenThread(tx, threadId);
    if (opts.skipIfPending) {
      const pending = await tx.turn.findFirst({
        where: { threadId, actor: turn.actor, actorId: turn.actorId ?? null, action: turn.action ?? "message", status: { not: "evaluated" } },
        select: { id: true },
      });
      if (pending) return null;
    }
    return insertTurnLocked(tx, threadId, turn);
    // Writers to one busy thread queue on its lock, each holding a pooled connection: a burst
    // waits its turn for a connection instead of failing after Prisma's default two seconds.
  }, { maxWait: 30_000, timeout: 30_000 });
  if (created) await announceThreadChange(threadId, created.seq);
  if (created?.mentionsAgentId) await wakeMentioned(threadId);
  return created;
}
