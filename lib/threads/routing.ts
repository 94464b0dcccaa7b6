import { getPool, prepared } from "@/lib/db";
import { statusRank, type TurnStatusName } from "@/lib/threads/schema";
import { setTurnStatus } from "@/lib/threads/status";

export const promptTarget = (promptId: string) => `prompt:${promptId}`;

export const runTarget = (runId: string) => `run:${runId}`;

/**
 * The lead's route and verify turns for a prompt (or a run) follow the worker that took it:
 * delivered when it starts reporting, evaluated when its result is in. A verify turn goes by its
 * own target, whatever thread it was written in. Forward only; a repeat changes nothing.
 */
export async function advanceRoutes(promptId: string | null, status: Exclude<TurnStatusName, "sent">, runId?: string): Promise<number> {
  const targets = [promptId ? promptTarget(promptId) : null, runId ? runTarget(runId) : null].filter((t): t is string => t !== null);
  if (targets.length === 0) return 0;
  // On every run's start: one statement on the pool, not Prisma's query compiler on the worker's thread.
  const { rows: routes } = await getPool().query<{ threadId: string; seq: number; status: TurnStatusName }>(prepared(
    `SELECT "threadId", seq, status::text AS status FROM "Turn"
     WHERE action IN ('route', 'verify') AND target = ANY($1::text[]) AND status IN ('sent', 'delivered')`, [targets]));
  let changed = 0;
  for (const r of routes) {
    if (statusRank(r.status) >= statusRank(status)) continue;
    changed += (await setTurnStatus(r.threadId, r.seq, status).catch(() => ({ count: 0 }))).count;
  }
  return changed;
}
