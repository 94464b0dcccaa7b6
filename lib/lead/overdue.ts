import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/log";
import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { cancelRun, RunStateError } from "@/lib/runs/cancel";
import { insertTurnLocked, lockOpenThread } from "@/lib/threads/append";
import { announceThreadChange } from "@/lib/threads/events";
import { FRESH_RESULT_MS, GRACE_MS, MAX_SESSION_MS } from "@/lib/lead/rules";

/**
 * A lead run past its limit (plus a grace when a worker's result arrived in the last minute, so
 * the lead can still read it) has its thread closed with a system turn saying why, and is stopped.
 */
export async function closeOverdueSessions(now = new Date()): Promise<number> {
  const db = getDb();
  const overdue = await db.run.findMany({
    where: { kind: "lead", threadId: { not: null }, status: { in: [...LIVE_RUN_STATUSES] }, queuedAt: { lte: new Date(now.getTime() - MAX_SESSION_MS) } },
    select: { id: true, threadId: true, queuedAt: true, project: { select: { id: true, teamId: true } } },
  });
  let closed = 0;
  for (const run of overdue) {
    const threadId = run.threadId!;
    const fresh = await db.turn.count({ where: { threadId, actor: "worker", action: "result", createdAt: { gt: new Date(now.getTime() - FRESH_RESULT_MS) } } });
    if (fresh && run.queuedAt.getTime() > now.getTime() - MAX_SESSION_MS - GRACE_MS) continue;
    const done = await db.$transaction(async (tx) => {
      if (!(await lockOpenThread(tx, threadId).catch(() => null))) return false;
      await insertTurnLocked(tx, threadId, { actor: "system", text: `Closed: the lead agent's session passed its ${MAX_SESSION_MS / 60_000}-minute limit.` });
      await tx.thread.update({ where: { id: threadId }, data: { closedAt: now } });
      return true;
    });
    await cancelRun(run.project, run.id).catch((err) => { if (!(err instanceof RunStateError)) throw err; });
    if (!done) continue;
    closed++;
    getLogger("lead").warn({ threadId, runId: run.id }, "lead session over its limit: thread closed");
    await announceThreadChange(threadId);
  }
  return closed;
}
