import { arr, logLine, num, obj, parseJsonObject, str, sumOf, type JsonObject } from "@/lib/agents/json-line";
import { permissionArgs } from "@/lib/agents/permission-modes";
import type { AgentAdapter, AgentEvent } from "@/lib/agents/types";

// Flags checked against `pi --help` of @mariozechner/pi-coding-agent 0.73.1; events are its
// AgentSessionEvent union (docs/json.md). `-p` without a message argument reads the prompt from
// the piped stdin. --no-session: the run's history is in Ringmaster, not in a session file;
// --offline: no version check or package fetch at start-up.
export const piAdapter: AgentAdapter = {
  name: "pi",
  build: ({ prompt, model, extraArgs = [], permissionMode }) => ({
    command: "pi",
    args: ["-p", "--mode", "json", "--no-session", "--offline", ...permissionArgs("pi", permissionMode, extraArgs), ...(model ? ["--model", model] : []), ...extraArgs],
    stdin: prompt,
  }),
  parseLine: (line) => parsePiLine(line),
};

export function parsePiLine(line: string): AgentEvent[] {
  const event = parseJsonObject(line);
  if (!event) return logLine(line);
  switch (event.type) {
    case "session":
      return [{ type: "init", sessionId: str(event.id) }];
    case "message_end":
      return messageEnd(obj(event.message));
    case "tool_execution_start":
      return [{ type: "tool_use", id: str(event.toolCallId) ?? "", name: str(event.toolName) ?? "tool", input: event.args ?? {} }];
    case "tool_execution_end": {
      const output = arr(obj(event.result).content).map((c) => str(obj(c).text) ?? "").join("\n");
      return [{ type: "tool_result", toolUseId: str(event.toolCallId) ?? "", output, isError: event.isError === true }];
    }
    case "auto_retry_start":
      return logLine(`API retry ${num(event.attempt) ?? "?"}/${num(event.maxAttempts) ?? "?"}: ${str(event.errorMessage) ?? "error"}`);
    case "compaction_end":
      return logLine(`Context compacted (${str(event.reason) ?? "threshold"})`);
    case "agent_end":
      return [resultOf(arr(event.messages).map(obj).filter((m) => m.role === "assistant"))];
    // Deltas, turn and queue bookkeeping: the finished message carries the same.
    default:
      return [];
  }
}

// pi's usage: `input` excludes the cached reads and writes; `output` is the completion, reasoning included.
function messageEnd(message: JsonObject): AgentEvent[] {
  if (message.role !== "assistant") return [];
  const usage = obj(message.usage);
  const events: AgentEvent[] = [{
    type: "usage", messageId: str(message.responseId) ?? String(num(message.timestamp) ?? ""), model: str(message.model),
    inputTokens: num(usage.input) ?? 0, outputTokens: num(usage.output) ?? 0, cacheReadTokens: num(usage.cacheRead) ?? 0, cacheWriteTokens: num(usage.cacheWrite) ?? 0,
  }];
  const text = arr(message.content).map(obj).filter((c) => c.type === "text").map((c) => str(c.text) ?? "").join("");
  if (text) events.push({ type: "text", text });
  return events;
}

// agent_end carries every message of the run: its totals and how the last one ended.
function resultOf(assistant: JsonObject[]): AgentEvent {
  const usages = assistant.map((m) => obj(m.usage));
  const sum = (key: string) => sumOf(...usages.map((u) => u[key])) ?? 0;
  const cost = sumOf(...usages.map((u) => obj(u.cost).total)) ?? 0;
  const last = assistant.at(-1) ?? {};
  const failed = last.stopReason === "error" || last.stopReason === "aborted";
  return {
    type: "result",
    ok: assistant.length > 0 && !failed,
    ...(failed ? { summary: str(last.errorMessage) ?? str(last.stopReason) } : {}),
    ...(cost > 0 ? { costUsd: cost } : {}),
    inputTokens: sum("input") + sum("cacheRead") + sum("cacheWrite"),
    cacheReadTokens: sum("cacheRead"),
    outputTokens: sum("output"),
    turns: assistant.length,
  };
}
