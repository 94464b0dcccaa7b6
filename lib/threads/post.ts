import { getDb } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { appendTurn, type NewTurn } from "@/lib/threads/append";
import { requireThread } from "@/lib/threads/queries";
import { personTurnInput } from "@/lib/threads/schema";

/**
 * Who a caller is in a thread: the token handed to a run writes as that run (a worker), so the
 * lead never takes an agent's own words for a person's; anyone else writes as a person.
 */
export async function authorOf(actor: Actor): Promise<Pick<NewTurn, "actor" | "actorId">> {
  if (actor.kind === "token") {
    const token = await getDb().apiToken.findUnique({ where: { id: actor.id }, select: { runId: true } });
    if (token?.runId) return { actor: "worker", actorId: token.runId };
  }
  return { actor: "person", actorId: `${actor.kind}:${actor.id}` };
}

/** A message from the dashboard or the API into a thread the caller may write to. */
export async function postMessage(actor: Actor, threadId: string, raw: unknown) {
  const input = personTurnInput.parse(raw);
  const { thread } = await requireThread(actor, threadId, "operator");
  const turn = await appendTurn(thread.id, { ...(await authorOf(actor)), action: "message", text: input.text });
  return turn!;
}
