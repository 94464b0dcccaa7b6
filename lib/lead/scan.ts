import { getDb, Prisma } from "@/lib/db";
import { announceStatus } from "@/lib/threads/events";
import { wakeThread } from "@/lib/lead/wake";
import { closeOverdueSessions } from "@/lib/lead/overdue";
import { IDLE_MS, NO_LIVE_LEAD, WAKES } from "@/lib/lead/rules";

const BATCH = 100;

/**
 * The lead's loop saw every sent turn of every open thread: sent → delivered, even while a lead
 * run of that thread is still working (it reads them next time; no second run starts).
 */
export async function deliverSentTurns(): Promise<number> {
  const rows = await getDb().$queryRaw<{ threadId: string; seq: number }[]>`
    UPDATE "Turn" t SET status = 'delivered', "deliveredAt" = now()
    FROM "Thread" th WHERE t."threadId" = th.id AND th."closedAt" IS NULL AND t.status = 'sent'
    RETURNING t."threadId", t.seq`;
  const byThread = new Map<string, number[]>();
  for (const r of rows) byThread.set(r.threadId, [...(byThread.get(r.threadId) ?? []), r.seq]);
  for (const [threadId, seqs] of byThread) await announceStatus(threadId, "delivered", seqs.sort((a, b) => a - b));
  return rows.length;
}

async function threadsWith(condition: Prisma.Sql) {
  const rows = await getDb().$queryRaw<{ id: string }[]>`
    SELECT th.id FROM "Thread" th
    WHERE th."closedAt" IS NULL AND NOT th."waitingForUser" AND ${NO_LIVE_LEAD} AND ${condition}
    ORDER BY th."updatedAt" LIMIT ${BATCH}`;
  return rows.map((r) => r.id);
}

/**
 * One pass of the lead's loop (every worker runs it; the per-thread lock keeps it to one run per
 * thread): deliver what was sent, wake threads with unread turns, give quiet threads their one
 * idle look, and close sessions past their limit. `now` is a parameter so tests can move time.
 */
export async function scanThreads(now = new Date()) {
  const delivered = await deliverSentTurns();
  const unread = await threadsWith(Prisma.sql`EXISTS (SELECT 1 FROM "Turn" t WHERE t."threadId" = th.id AND ${WAKES})`);
  const idle = await threadsWith(Prisma.sql`
    th."lastProcessedAt" <= ${new Date(now.getTime() - IDLE_MS)}
    AND (th."idleRunAt" IS NULL OR th."idleRunAt" < th."lastProcessedAt")
    AND NOT EXISTS (SELECT 1 FROM "Turn" t WHERE t."threadId" = th.id AND t.status = 'sent')
    AND NOT EXISTS (SELECT 1 FROM "Turn" t WHERE t."threadId" = th.id AND ${WAKES})`);
  const started = [];
  for (const id of unread) started.push(await wakeThread(id, "unread", now));
  for (const id of idle) started.push(await wakeThread(id, "idle", now));
  const closed = await closeOverdueSessions(now);
  return { delivered, started: started.filter((r) => r !== null).length, closed };
}
