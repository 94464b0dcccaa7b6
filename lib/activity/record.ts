import { getDb, type Prisma } from "@/lib/db";
import { announce } from "@/lib/events/publish";
import type { EventType } from "@/lib/events/streams";

type Project = { id: string; teamId: string };
type Ids = { runId?: string; promptId?: string };

/** The activity log row, written in the transaction of the change it describes. */
export async function writeActivity(tx: Pick<Prisma.TransactionClient, "activityEvent">, project: Project, type: EventType, message: string, ids: Ids = {}): Promise<void> {
  await tx.activityEvent.create({ data: { projectId: project.id, type, message, data: ids } });
}

/** Tells open dashboards about a committed activity entry (never throws). */
export async function announceActivity(project: Project, type: EventType, message: string, ids: Ids = {}): Promise<void> {
  await announce(project.teamId, { type, projectId: project.id, message, ...ids });
}

/** Writes an entry to the project's activity log, then announces it. */
export async function recordActivity(project: Project, type: EventType, message: string, ids: Ids = {}): Promise<void> {
  await writeActivity(getDb(), project, type, message, ids);
  await announceActivity(project, type, message, ids);
}
