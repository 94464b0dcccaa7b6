import { getDb } from "@/lib/db";
import { announce } from "@/lib/events/publish";
import type { TurnStatusName } from "@/lib/threads/schema";

async function threadScope(threadId: string) {
  return getDb().thread.findUnique({ where: { id: threadId }, select: { projectId: true, promptId: true, project: { select: { teamId: true } } } });
}

/** A turn was added (or the thread changed): pages showing the thread re-read it. */
export async function announceThreadChange(threadId: string, seq?: number): Promise<void> {
  const t = await threadScope(threadId);
  if (!t) return;
  await announce(t.project.teamId, { type: "threadChange", projectId: t.projectId, threadId, ...(t.promptId ? { promptId: t.promptId } : {}), ...(seq === undefined ? {} : { seq }) });
}

/** Receipts: these turns of the thread reached `status` (seqs "all": every turn of the thread). */
export async function announceStatus(threadId: string, status: TurnStatusName, seqs: number[] | "all"): Promise<void> {
  const t = await threadScope(threadId);
  if (!t) return;
  await announce(t.project.teamId, { type: "message_status", projectId: t.projectId, threadId, status, seqs });
}
