import { getDb } from "@/lib/db";
import { AccessError } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";
import { ensurePromptThread } from "@/lib/threads/create";

/**
 * The run behind a run-scoped token, with its project and the thread it talks in: a lead run's
 * own thread, an executor's prompt thread. Any other token is refused: the endpoint is for agents.
 */
export async function requireAgentRun(actor: Actor) {
  if (actor.kind !== "token") throw new AccessError(403, "only a run's token can use the agent endpoint");
  const token = await getDb().apiToken.findUnique({ where: { id: actor.id }, select: { runId: true } });
  if (!token?.runId) throw new AccessError(403, "only a run's token can use the agent endpoint");
  const run = await getDb().run.findUniqueOrThrow({
    where: { id: token.runId },
    select: { id: true, kind: true, status: true, threadId: true, threadSeq: true, project: true, prompt: { select: { id: true, projectId: true, number: true, title: true, body: true } } },
  });
  if (run.project.teamId !== actor.teamId || (actor.projectId && actor.projectId !== run.project.id)) throw new AccessError(404, "run not found");
  const threadId = run.threadId ?? (run.prompt ? (await ensurePromptThread(run.prompt)).id : null);
  return { ...run, threadId };
}

export type AgentRun = Awaited<ReturnType<typeof requireAgentRun>>;
