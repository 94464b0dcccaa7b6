import { getDb } from "@/lib/db";
import { appendTurn } from "@/lib/threads/append";
import { raiseBudgetAlerts } from "@/lib/budgets/alerts";

/** The project's thread where Ringmaster itself tells the team what it did or saw (budget alerts). */
export const NOTICES_TITLE = "Ringmaster notices";

/**
 * Posts a system turn to the project's open notices thread, opening one the first time (or after a
 * person closed the last). System turns wake no lead agent: an alert about spend must not spend.
 * Under a per-project advisory lock, so racing workers open one thread, not two.
 */
export async function postNotice(projectId: string, text: string, actorId = "ringmaster") {
  const thread = await getDb().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`notices:${projectId}`}))`;
    const open = await tx.thread.findFirst({ where: { projectId, promptId: null, title: NOTICES_TITLE, closedAt: null }, orderBy: { createdAt: "desc" } });
    return open ?? tx.thread.create({ data: { projectId, title: NOTICES_TITLE } });
  });
  return appendTurn(thread.id, { actor: "system", actorId, action: "message", text });
}

/** Raises the budget alerts the ledger has reached; each also reaches the team as a notice. */
export async function alertBudgets(project: { id: string; teamId: string }): Promise<void> {
  for (const alert of await raiseBudgetAlerts(project)) await postNotice(project.id, alert.message, "budget");
}
