import { logLine, num, obj, parseJsonObject, str, type JsonObject } from "@/lib/agents/json-line";
import { permissionArgs } from "@/lib/agents/permission-modes";
import { quoteShellArg } from "@/lib/agents/shell";
import type { AgentAdapter, AgentEvent } from "@/lib/agents/types";

// Flags checked against `cline --help` of cline 3.0.65. `--json` refuses to start without a
// prompt argument, and appends stdin to it only when stdin is a FIFO or a file (not the socket a
// spawned child's pipe is): the argument is one short sentence and the prompt goes through
// `cat |` on stdin (never one huge argument).
// Its NDJSON lines are `hook_event`s, `agent_event`s (content_start/_end of text and tools, usage
// per model call, error) and a final `run_result` with the run's usage, its text and the model.
// Its default session backend ("auto") runs the session in a hub daemon, started detached (a
// session and process group of its own, so it outlived the run) or reused from another cline of
// the same HOME (the run would then work outside its process group, beyond cancel):
// CLINE_SESSION_BACKEND_MODE=local keeps the session in the process Ringmaster started.
export const CLINE_LEAD = "Carry out the task below.";

export const clineAdapter: AgentAdapter = {
  name: "cline",
  build: ({ prompt, model, extraArgs = [], permissionMode }) => {
    const args = ["--json", ...permissionArgs("cline", permissionMode, extraArgs), ...(model ? ["--model", model] : []), ...extraArgs, CLINE_LEAD];
    return { command: `cat | CLINE_SESSION_BACKEND_MODE=local cline ${args.map(quoteShellArg).join(" ")}`, args: [], shell: true, program: "cline", stdin: prompt };
  },
  parseLine: (line) => parseClineLine(line),
};

export function parseClineLine(line: string): AgentEvent[] {
  const message = parseJsonObject(line);
  if (!message) return logLine(line);
  switch (message.type) {
    case "hook_event":
      return message.hookEventName === "agent_start" ? [{ type: "init", sessionId: str(message.taskId) }] : [];
    case "agent_event":
      return agentEvent(obj(message.event), str(message.ts) ?? "");
    case "run_result":
      return runResult(message);
    // run_aborted, status lines
    default:
      return [];
  }
}

function agentEvent(event: JsonObject, ts: string): AgentEvent[] {
  const tool = event.contentType === "tool";
  switch (event.type) {
    case "content_start":
      return tool ? [{ type: "tool_use", id: str(event.toolCallId) ?? "", name: str(event.toolName) ?? "tool", input: event.input ?? {} }] : [];
    case "content_end": {
      if (!tool) return event.contentType === "text" && str(event.text) ? [{ type: "text", text: str(event.text)! }] : [];
      const error = str(event.error);
      const output = error ?? (typeof event.output === "string" ? event.output : JSON.stringify(event.output ?? ""));
      return [{ type: "tool_result", toolUseId: str(event.toolCallId) ?? "", output, isError: error !== undefined || failedCommand(event.output) }];
    }
    case "usage": {
      // One model call; its input includes the cached part, which a usage event counts apart.
      const cacheRead = num(event.cacheReadTokens) ?? 0;
      const input = num(event.inputTokens) ?? 0;
      return [{ type: "usage", messageId: `cline-${ts}-${num(event.totalInputTokens) ?? 0}`, inputTokens: Math.max(0, input - cacheRead), outputTokens: num(event.outputTokens) ?? 0, cacheReadTokens: cacheRead, cacheWriteTokens: num(event.cacheWriteTokens) ?? 0 }];
    }
    case "error":
      return logLine(`error: ${str(obj(event.error).message) ?? ""}`);
    default:
      return [];
  }
}

/** run_commands answers a list of `{ success }`, one per command. */
function failedCommand(output: unknown): boolean {
  return Array.isArray(output) && output.some((o) => obj(o).success === false);
}

function runResult(message: JsonObject): AgentEvent[] {
  const usage = obj(message.aggregateUsage ?? message.usage);
  const cost = num(usage.totalCost);
  const model = str(obj(message.model).id);
  return [
    ...(model ? [{ type: "init", model } as const] : []),
    {
      type: "result",
      ok: message.finishReason === "completed",
      summary: str(message.text),
      inputTokens: num(usage.inputTokens),
      cacheReadTokens: num(usage.cacheReadTokens),
      outputTokens: num(usage.outputTokens),
      turns: num(message.iterations),
      // Cline prices only the models it knows and says 0 for the others: 0 is no price, not free.
      costUsd: cost ? cost : undefined,
    },
  ];
}
