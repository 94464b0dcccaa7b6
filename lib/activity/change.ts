import { writeActivity, announceActivity } from "@/lib/activity/record";
import { recordAudit, type AuditEntry } from "@/lib/audit/record";
import type { EventType } from "@/lib/events/streams";
import { getDb, type Prisma } from "@/lib/db";
import { publishOutbox, recordOutbox, type OutboxMessage } from "@/lib/queues";

type Project = { id: string; teamId: string };

export interface Change {
  /** The audit entry of the change. */
  audit?: Omit<AuditEntry, "teamId">;
  activity: [type: EventType, message: string, ids?: { runId?: string; promptId?: string }];
  /** Why the project's tick should look now; absent when the change cannot unblock work. */
  nudge?: string;
  /** Other work orders the change causes (a schedule to follow, a pull request to look at again). */
  wakeUps?: OutboxMessage[];
  /** The change queues work: a loop the system stopped because its queue ran dry runs again. */
  addsWork?: boolean;
}

/** The reason kept on a loop the autopilot stopped because no tasks remained (seed 003). */
export const QUEUE_RAN_DRY = "queue ran dry";

/**
 * New work starts a loop that stopped only because its queue ran dry; a person's Stop stays.
 * Returns whether it did (the loop's periodic tick must then come back).
 */
export async function restartDryLoop(tx: Prisma.TransactionClient, projectId: string): Promise<boolean> {
  const n = await tx.loopState.updateMany({ where: { projectId, mode: "stopped", pauseReason: QUEUE_RAN_DRY }, data: { mode: "running", pauseReason: null } });
  return n.count > 0;
}

/**
 * Makes a change to a project in one transaction with its audit entry, its activity entry
 * and its wake-ups (the transactional outbox), then announces it and hands the wake-ups to
 * Redis. Redis being away neither fails the change nor loses its wake-up: the outbox relay
 * delivers it when Redis answers. `describe` returns null when nothing changed.
 */
export async function commitChange<T>(project: Project, write: (tx: Prisma.TransactionClient) => Promise<T>, describe: (result: T) => Change | null): Promise<T> {
  const { result, change, outbox } = await getDb().$transaction(async (tx) => {
    const result = await write(tx);
    const change = describe(result);
    if (!change) return { result, change, outbox: [] };
    if (change.audit) await recordAudit({ teamId: project.teamId, ...change.audit }, tx);
    await writeActivity(tx, project, ...change.activity);
    const messages: OutboxMessage[] = [...(change.wakeUps ?? [])];
    if (change.addsWork && (await restartDryLoop(tx, project.id))) messages.push({ kind: "schedule", projectId: project.id, ...(change.nudge ? { nudged: true } : {}) });
    if (change.nudge) messages.push({ kind: "tick", projectId: project.id, reason: change.nudge });
    return { result, change, outbox: await recordOutbox(tx, messages) };
  });
  // Side by side (neither throws): a wake-up does not wait for the dashboards' announcement.
  if (change) await Promise.all([announceActivity(project, ...change.activity), publishOutbox(outbox)]);
  return result;
}

/** Records a change whose own write has already committed (or has none): audit, activity, wake-ups. */
export async function recordChange(project: Project, change: Change): Promise<void> {
  await commitChange(project, async () => undefined, () => change);
}
