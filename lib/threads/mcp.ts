import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Actor } from "@/lib/auth/actor";
import { ControlError } from "@/lib/errors";
import { createPrompt } from "@/lib/prompts/create";
import { appendTurn, type NewTurn } from "@/lib/threads/append";
import { markDelivered } from "@/lib/threads/status";
import { advanceRoutes, promptTarget } from "@/lib/threads/routing";
import { resolveVerifyTarget } from "@/lib/threads/verify";
import { getDb } from "@/lib/db";
import { turnText } from "@/lib/threads/schema";
import type { AgentRun } from "@/lib/threads/agent-run";

const json = (value: unknown) => ({ content: [{ type: "text" as const, text: JSON.stringify(value) }] });

/**
 * The tools an agent run gets over MCP, bound to that run: it reads and writes only its own
 * thread and adds prompts only to its own project. A lead writes as the lead; any other run as
 * a worker, so its words never pass for a person's.
 */
export function agentMcpServer(actor: Actor, run: AgentRun): McpServer {
  const server = new McpServer({ name: "ringmaster", version: "1.0.0" });
  const needThread = () => {
    if (!run.threadId) throw new ControlError("thread", "this run has no thread", 400);
    return run.threadId;
  };
  const write = async (turn: Omit<NewTurn, "actor" | "actorId">) => {
    const row = await appendTurn(needThread(), { actor: run.kind === "lead" ? "lead" : "worker", actorId: run.id, ...turn });
    return json({ seq: row!.seq, status: row!.status });
  };

  server.registerTool("get_task", { description: "What this run is asked to do: its prompt, or the thread a lead answers." }, async () =>
    json({ runId: run.id, kind: run.kind, project: run.project.name, threadId: run.threadId, prompt: run.prompt && { number: run.prompt.number, title: run.prompt.title, body: run.prompt.body } }));

  server.registerTool("read_messages", {
    description: "The thread's turns after a sequence number (all when absent). Turns returned are marked delivered.",
    inputSchema: { afterSeq: z.number().int().min(0).max(2_147_483_647).optional() },
  }, async ({ afterSeq }) => {
    const threadId = needThread();
    const turns = await getDb().turn.findMany({
      where: { threadId, seq: { gt: afterSeq ?? 0 } }, orderBy: { seq: "asc" }, take: 500,
      select: { seq: true, actor: true, action: true, content: true, target: true, status: true },
    });
    const unseen = turns.filter((t) => t.status === "sent").map((t) => t.seq);
    if (unseen.length) await markDelivered(threadId, unseen);
    return json({ turns: turns.map((t) => ({ ...t, status: unseen.includes(t.seq) ? "delivered" : t.status })) });
  });

  server.registerTool("post_message", { description: "Write a message to the thread.", inputSchema: { text: turnText } }, ({ text }) => write({ action: "message", text }));
  server.registerTool("report_progress", { description: "Say how the work goes (does not wake the lead).", inputSchema: { text: turnText } }, async ({ text }) => {
    await advanceRoutes(run.prompt?.id ?? null, "delivered", run.id);
    return write({ action: "progress", text });
  });
  server.registerTool("complete_task", { description: "Report the result of this run's work to the thread (wakes the lead).", inputSchema: { summary: turnText } }, async ({ summary }) => {
    await advanceRoutes(run.prompt?.id ?? null, "evaluated", run.id);
    return write({ action: "result", text: summary });
  });
  server.registerTool("wait_for_user", {
    description: "Summarize findings and the actions a person can choose; the thread waits until a person writes.",
    inputSchema: { summary: turnText },
  }, ({ summary }) => write({ action: "wait", text: summary }));

  // The seed's re-trigger: the lead asks for a check of one prompt or run, named on the turn
  // itself (not the thread's own prompt); the turn follows that target's worker.
  server.registerTool("verify", {
    description: "Ask for a check of one prompt (prompt:<number>) or run (run:<id>) of this project; the turn is evaluated when that work's result is in.",
    inputSchema: { target: z.string().max(64), check: turnText },
  }, async ({ target, check }) => write({ action: "verify", text: check, target: await resolveVerifyTarget(run.project.id, target) }));

  server.registerTool("create_prompt", {
    description: "Add a prompt (a unit of work) to this project's queue.",
    inputSchema: {
      title: z.string().min(1).max(200), body: z.string().max(100_000).optional(),
      priority: z.number().int().min(1).max(4).optional(), dependencies: z.array(z.number().int().min(1).max(2_147_483_647)).max(100).optional(),
    },
  }, async (input) => {
    const prompt = await createPrompt(actor, run.project, input);
    // The lead's decision is a route turn in its thread, whose receipts follow the worker.
    if (run.kind === "lead" && run.threadId) {
      await appendTurn(run.threadId, { actor: "lead", actorId: run.id, action: "route", text: `#${prompt.number} ${prompt.title} goes to the queue`, target: promptTarget(prompt.id) });
    }
    return json({ id: prompt.id, number: prompt.number, approval: prompt.approval });
  });
  return server;
}
