import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/log";
import { appendTurn } from "@/lib/threads/append";
import { markEvaluatedUpTo } from "@/lib/threads/status";

const NAMES: Record<string, string> = { person: "Person", lead: "You (lead agent)", worker: "Worker run", monitor: "Monitor", system: "System" };

/**
 * What a lead run is told: the thread up to the last turn it was given, oldest first, and, when
 * its CLI is wired to Ringmaster's MCP server, the tools it can act with.
 */
export async function leadPrompt(threadId: string, upToSeq: number, mcpServer: string | null = null): Promise<string> {
  const thread = await getDb().thread.findUniqueOrThrow({
    where: { id: threadId },
    select: { title: true, project: { select: { name: true } }, prompt: { select: { number: true, title: true } }, turns: { where: { seq: { lte: upToSeq } }, orderBy: { seq: "asc" } } },
  });
  const about = thread.prompt ? `prompt #${thread.prompt.number} "${thread.prompt.title}"` : `"${thread.title ?? "untitled"}"`;
  return [
    `You are the lead agent of the project "${thread.project.name}", in the conversation about ${about}.`,
    "Read the conversation below and answer the newest turns of people, monitors and workers. Your final answer is posted to the thread.",
    ...(mcpServer ? [`To act, use the tools of the \`${mcpServer}\` MCP server: create_prompt queues work (with priority and dependencies), post_message writes to the thread, verify asks for a check of one prompt or run (prompt:<number>, run:<id>), wait_for_user asks a person to decide, read_messages shows turns newer than these.`] : []),
    "",
    ...thread.turns.map((t) => `## #${t.seq} ${NAMES[t.actor] ?? t.actor}${t.actorId && t.actor === "monitor" ? ` (${t.actorId})` : ""}${t.action && t.action !== "message" ? ` [${t.action}]` : ""}${t.target ? ` → ${t.target}` : ""}\n\n${t.content}\n`),
  ].join("\n");
}

/**
 * A lead run ended. Only a success evaluates the turns it was given and posts its answer; a run
 * that failed or was lost leaves them delivered, so the next run reads them again (never lost).
 */
export async function finishLeadRun(run: { id: string; threadId: string | null; threadSeq: number | null }, outcome: { status: string; summary?: string }): Promise<void> {
  if (!run.threadId || run.threadSeq === null) return;
  if (outcome.status !== "succeeded") return;
  await markEvaluatedUpTo(run.threadId, run.threadSeq);
  const answer = outcome.summary?.trim();
  if (!answer) return;
  await appendTurn(run.threadId, { actor: "lead", actorId: run.id, action: "message", text: answer.slice(0, 100_000) }).catch((err: Error) => {
    // The thread was closed while the run worked: the answer has nowhere to go.
    getLogger("threads").info({ runId: run.id, err: err.message }, "lead answer not posted");
  });
}
