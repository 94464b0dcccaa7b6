import { arr, contentText, logLine, num, obj, parseJsonObject, str, type JsonObject } from "@/lib/agents/json-line";
import { permissionArgs } from "@/lib/agents/permission-modes";
import type { AgentAdapter, AgentEvent } from "@/lib/agents/types";

// `codex exec --json` prints the ThreadEvent union of @openai/codex-sdk (dist/index.d.ts);
// flags checked against `codex exec --help` of @openai/codex 0.169.0. The prompt goes on stdin,
// as the SDK sends it, so no prompt text is ever parsed as a flag.
export const codexAdapter: AgentAdapter = {
  name: "codex",
  build: ({ prompt, model, extraArgs = [], permissionMode }) => ({
    command: "codex",
    args: ["exec", "--json", "--color", "never", ...permissionArgs("codex", permissionMode, extraArgs), ...(model ? ["--model", model] : []), ...extraArgs],
    stdin: prompt,
  }),
  parseLine: (line) => parseCodexLine(line),
};

export function parseCodexLine(line: string): AgentEvent[] {
  const event = parseJsonObject(line);
  if (!event) return logLine(line);
  switch (event.type) {
    case "thread.started":
      return [{ type: "init", sessionId: str(event.thread_id) }];
    case "item.started":
      return itemStarted(obj(event.item));
    case "item.completed":
      return itemCompleted(obj(event.item));
    // OpenAI's counts: input_tokens includes the cached ones, output_tokens the reasoning ones.
    case "turn.completed": {
      const usage = obj(event.usage);
      return [{ type: "result", ok: true, inputTokens: num(usage.input_tokens), cacheReadTokens: num(usage.cached_input_tokens), outputTokens: num(usage.output_tokens) }];
    }
    case "turn.failed":
      return [{ type: "result", ok: false, summary: str(obj(event.error).message) }];
    // Stream errors are mostly reconnect notices; a fatal one is followed by turn.failed.
    case "error":
      return logLine(str(event.message) ?? "");
    // turn.started carries nothing; item.updated re-sends a to-do list whose final state comes with item.completed.
    case "turn.started":
    case "item.updated":
      return [];
    default:
      return logLine(line);
  }
}

function itemStarted(item: JsonObject): AgentEvent[] {
  const id = str(item.id) ?? "";
  switch (item.type) {
    case "command_execution":
      return [{ type: "tool_use", id, name: "command_execution", input: { command: item.command } }];
    case "file_change":
      return [{ type: "tool_use", id, name: "file_change", input: { changes: item.changes } }];
    case "mcp_tool_call":
      return [{ type: "tool_use", id, name: `${str(item.server) ?? "mcp"}.${str(item.tool) ?? "tool"}`, input: item.arguments ?? {} }];
    case "web_search":
      return [{ type: "tool_use", id, name: "web_search", input: { query: item.query } }];
    default:
      return [];
  }
}

function itemCompleted(item: JsonObject): AgentEvent[] {
  const toolUseId = str(item.id) ?? "";
  switch (item.type) {
    case "agent_message": {
      const text = str(item.text);
      return text ? [{ type: "text", text }] : [];
    }
    case "command_execution":
      return [{ type: "tool_result", toolUseId, output: str(item.aggregated_output) ?? "", isError: item.status !== "completed" || (num(item.exit_code) ?? 0) !== 0 }];
    case "file_change": {
      const output = arr(item.changes).map((c) => `${str(obj(c).kind) ?? "update"} ${str(obj(c).path) ?? ""}`).join("\n");
      return [{ type: "tool_result", toolUseId, output, isError: item.status === "failed" }];
    }
    case "mcp_tool_call": {
      const output = str(obj(item.error).message) ?? contentText(obj(item.result).content);
      return [{ type: "tool_result", toolUseId, output, isError: item.status === "failed" }];
    }
    case "web_search":
      return [{ type: "tool_result", toolUseId, output: str(item.query) ?? "", isError: false }];
    case "todo_list":
      return logLine(arr(item.items).map((t) => `[${obj(t).completed === true ? "x" : " "}] ${str(obj(t).text) ?? ""}`).join("\n"));
    case "error":
      return logLine(str(item.message) ?? "");
    // Reasoning summaries are the model's private notes, not steps of the work.
    default:
      return [];
  }
}
