import { getDb } from "@/lib/db";
import { statusRank, type TurnStatusName } from "@/lib/threads/schema";
import { setTurnStatus } from "@/lib/threads/status";

export const promptTarget = (promptId: string) => `prompt:${promptId}`;

/**
 * The lead's route turns for a prompt follow the worker that took it: delivered when it starts
 * reporting, evaluated when its result is in. Forward only; a repeat changes nothing.
 */
export async function advanceRoutes(promptId: string, status: Exclude<TurnStatusName, "sent">): Promise<number> {
  const routes = await getDb().turn.findMany({
    where: { action: "route", target: promptTarget(promptId), status: { in: ["sent", "delivered"] } },
    select: { threadId: true, seq: true, status: true },
  });
  let changed = 0;
  for (const r of routes) {
    if (statusRank(r.status) >= statusRank(status)) continue;
    changed += (await setTurnStatus(r.threadId, r.seq, status).catch(() => ({ count: 0 }))).count;
  }
  return changed;
}
