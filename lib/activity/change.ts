import { recordActivity } from "@/lib/activity/record";
import { recordAudit, type AuditEntry } from "@/lib/audit/record";
import type { EventType } from "@/lib/events/streams";
import { enqueueTick } from "@/lib/queues";

export interface Change {
  /** The audit entry, unless the caller already wrote it in the change's own transaction. */
  audit?: Omit<AuditEntry, "teamId">;
  activity: [type: EventType, message: string, ids?: { runId?: string; promptId?: string }];
  /** Why the project's tick should look now; absent when the change cannot unblock work. */
  nudge?: string;
}

/** Something changed in a project: audit it, show it in the activity log, and nudge the tick. */
export async function recordChange(project: { id: string; teamId: string }, change: Change): Promise<void> {
  if (change.audit) await recordAudit({ teamId: project.teamId, ...change.audit });
  await recordActivity(project, ...change.activity);
  if (change.nudge) await enqueueTick(project.id, change.nudge);
}
