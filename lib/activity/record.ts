import { getDb } from "@/lib/db";
import { announce } from "@/lib/events/publish";
import type { EventType } from "@/lib/events/streams";

/** Writes an entry to the project's activity log, then announces it. */
export async function recordActivity(
  project: { id: string; teamId: string },
  type: EventType,
  message: string,
  ids: { runId?: string; promptId?: string } = {},
): Promise<void> {
  await getDb().activityEvent.create({ data: { projectId: project.id, type, message, data: ids } });
  await announce(project.teamId, { type, projectId: project.id, message, ...ids });
}
