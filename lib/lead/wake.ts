import { getDb, Prisma } from "@/lib/db";
import { BudgetRefusal, reserveForRun } from "@/lib/budgets/reserve";
import { getLogger } from "@/lib/log";
import { announce } from "@/lib/events/publish";
import { enqueueSpawn } from "@/lib/queues";
import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { insertTurnLocked, lockOpenThread } from "@/lib/threads/append";
import { announceThreadChange } from "@/lib/threads/events";
import { IDLE_MS, LOOP_RUNS, LOOP_WINDOW_MS, WAKES } from "@/lib/lead/rules";

export type WakeReason = "unread" | "idle";
type Tx = Prisma.TransactionClient;

async function hasUnread(tx: Tx, threadId: string) {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "Turn" t WHERE t."threadId" = ${threadId} AND ${WAKES} LIMIT 1`;
  return rows.length > 0;
}

/** Runs since the last person's turn, within the window: how often the lead woke on its own. */
async function runsWithoutPerson(tx: Tx, threadId: string, now: Date) {
  const person = await tx.turn.findFirst({ where: { threadId, actor: "person" }, orderBy: { seq: "desc" }, select: { createdAt: true } });
  const windowStart = new Date(now.getTime() - LOOP_WINDOW_MS);
  const since = person && person.createdAt > windowStart ? person.createdAt : windowStart;
  return tx.run.count({ where: { threadId, kind: "lead", queuedAt: { gt: since } } });
}

/**
 * Starts the thread's lead run if it should have one. The thread row is locked and no live lead
 * run may exist, so however many workers scan at once a thread gets one run at a time. The run
 * is given every turn so far (threadSeq); they become evaluated when it succeeds.
 */
export async function wakeThread(threadId: string, reason: WakeReason, now = new Date(), loopRuns = LOOP_RUNS) {
  const result = await getDb().$transaction(async (tx) => {
    const thread = await lockOpenThread(tx, threadId).catch(() => null);
    if (!thread || thread.waitingForUser) return null;
    if (await tx.run.count({ where: { threadId, status: { in: [...LIVE_RUN_STATUSES] } } })) return null;
    if (reason === "unread" && !(await hasUnread(tx, threadId))) return null;
    if (reason === "idle") {
      const quiet = thread.lastProcessedAt && thread.lastProcessedAt.getTime() <= now.getTime() - IDLE_MS;
      const alreadyIdled = thread.idleRunAt && thread.lastProcessedAt && thread.idleRunAt >= thread.lastProcessedAt;
      if (!quiet || alreadyIdled || (await tx.turn.count({ where: { threadId, status: "sent" } }))) return null;
    }
    const recent = await runsWithoutPerson(tx, threadId, now);
    if (recent >= loopRuns) {
      await insertTurnLocked(tx, threadId, {
        actor: "system", action: "wait",
        text: `Paused: the lead agent ran ${recent} times in ${LOOP_WINDOW_MS / 60_000} minutes without a new message from a person. Write here to let it go on.`,
      });
      return { paused: true as const, projectId: thread.projectId };
    }
    const project = await tx.project.findUniqueOrThrow({ where: { id: thread.projectId }, select: { teamId: true, settings: { select: { plannerProfile: true, executorProfile: true } } } });
    // The lead thinks rather than codes: the planner's profile, else the executor's.
    const profile = project.settings?.plannerProfile ?? project.settings?.executorProfile;
    if (!profile) return null;
    // A budget that cannot take the run leaves the turn unread: the next wake-up tries again.
    const reservedUsd = await reserveForRun(tx, thread.projectId, profile.id, now).catch((err) => {
      if (err instanceof BudgetRefusal) return "refused" as const;
      throw err;
    });
    if (reservedUsd === "refused") return null;
    const last = await tx.turn.aggregate({ where: { threadId }, _max: { seq: true } });
    const run = await tx.run.create({
      data: { projectId: thread.projectId, kind: "lead", threadId, threadSeq: last._max.seq ?? 0, agentProfileId: profile.id, adapter: profile.adapter, model: profile.model, queuedAt: now, reservedUsd },
    });
    await tx.thread.update({ where: { id: threadId }, data: { lastProcessedAt: now, ...(reason === "idle" ? { idleRunAt: now } : {}) } });
    return { run, teamId: project.teamId };
  });
  if (!result) return null;
  if ("paused" in result) {
    getLogger("lead").warn({ threadId }, "lead loop breaker paused the thread");
    await announceThreadChange(threadId);
    return null;
  }
  // A lost job is re-queued by the sweeper (queued too long), so Redis being away loses no run.
  await enqueueSpawn(result.run.id).catch((err: Error) => getLogger("lead").warn({ runId: result.run.id, err: err.message }, "lead spawn not queued yet"));
  await announce(result.teamId, { type: "agentsChange", projectId: result.run.projectId, runId: result.run.id });
  return result.run;
}
