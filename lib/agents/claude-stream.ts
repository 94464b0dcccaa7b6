import { arr, contentText, logLine, num, obj, parseJsonObject, str, sumOf, type JsonObject } from "@/lib/agents/json-line";
import type { AgentEvent } from "@/lib/agents/types";

// Claude Code's stream-json lines are the SDK's SDKMessage union (@anthropic-ai/claude-agent-sdk,
// sdk.d.ts). These carry machine state (partial deltas, heartbeats, rate limits, suggestions),
// not steps of the work, so they are read and dropped rather than shown as raw JSON.
const SILENT_TYPES = new Set(["stream_event", "tool_progress", "rate_limit_event", "prompt_suggestion", "conversation_reset"]);

// System messages that tell a person watching something, and the field that says it. Other
// subtypes (status, hooks, task progress, session state) are bookkeeping.
const SYSTEM_TEXT_FIELD: Record<string, string> = {
  notification: "text",
  informational: "content",
  local_command_output: "content",
  permission_denied: "message",
  model_refusal_fallback: "content",
  model_refusal_no_fallback: "content",
  task_started: "description",
  task_notification: "summary",
  mirror_error: "error",
};

/** One line of `claude -p --output-format stream-json --verbose` (and of the demo agent). */
export function parseClaudeStreamLine(line: string): AgentEvent[] {
  const message = parseJsonObject(line);
  if (!message) return logLine(line);
  switch (message.type) {
    case "system":
      return systemEvents(message);
    case "assistant":
      return [...usageEvent(obj(message.message)), ...arr(obj(message.message).content).flatMap((block) => assistantBlock(obj(block)))];
    case "user":
      return arr(obj(message.message).content).flatMap((block) => userBlock(obj(block)));
    case "result":
      return [resultEvent(message)];
    case "tool_use_summary":
      return textLog(str(message.summary));
    case "auth_status":
      return textLog(str(message.error));
    default:
      return SILENT_TYPES.has(str(message.type) ?? "") ? [] : logLine(line);
  }
}

function systemEvents(message: JsonObject): AgentEvent[] {
  const subtype = str(message.subtype) ?? "";
  if (subtype === "init") return [{ type: "init", model: str(message.model), sessionId: str(message.session_id) }];
  if (subtype === "api_retry") {
    const status = num(message.error_status);
    const cause = `${str(message.error) ?? "error"}${status === undefined ? "" : ` (HTTP ${status})`}`;
    return textLog(`API retry ${num(message.attempt) ?? "?"}/${num(message.max_retries) ?? "?"}: ${cause}`);
  }
  if (subtype === "compact_boundary") {
    return textLog(`Context compacted (${num(obj(message.compact_metadata).pre_tokens) ?? "?"} tokens before)`);
  }
  const field = SYSTEM_TEXT_FIELD[subtype];
  return field === undefined ? [] : textLog(str(message[field]));
}

// Claude Code prints one line per content block, each carrying its message's usage so far.
function usageEvent(message: JsonObject): AgentEvent[] {
  const usage = obj(message.usage);
  const id = str(message.id);
  if (!id || num(usage.output_tokens) === undefined) return [];
  return [{
    type: "usage", messageId: id, model: str(message.model),
    inputTokens: num(usage.input_tokens) ?? 0, outputTokens: num(usage.output_tokens) ?? 0,
    cacheReadTokens: num(usage.cache_read_input_tokens) ?? 0, cacheWriteTokens: num(usage.cache_creation_input_tokens) ?? 0,
  }];
}

function assistantBlock(block: JsonObject): AgentEvent[] {
  const type = str(block.type) ?? "";
  const text = str(block.text);
  if (type === "text") return text ? [{ type: "text", text }] : [];
  if (type === "tool_use" || type === "server_tool_use" || type === "mcp_tool_use") {
    return [{ type: "tool_use", id: str(block.id) ?? "", name: str(block.name) ?? type, input: block.input ?? {} }];
  }
  // Server-side tools (web search, code execution) answer inside the assistant message.
  if (type.endsWith("_tool_result")) {
    const content = block.content;
    const output = contentText(content) || JSON.stringify(content ?? null);
    const isError = (str(obj(content).type) ?? "").endsWith("_error") || block.is_error === true;
    return [{ type: "tool_result", toolUseId: str(block.tool_use_id) ?? "", output, isError }];
  }
  return [];
}

function userBlock(block: JsonObject): AgentEvent[] {
  if (block.type !== "tool_result") return [];
  return [
    {
      type: "tool_result",
      toolUseId: str(block.tool_use_id) ?? "",
      output: contentText(block.content),
      isError: block.is_error === true,
    },
  ];
}

function resultEvent(message: JsonObject): AgentEvent {
  const usage = obj(message.usage);
  const errors = arr(message.errors).filter((e): e is string => typeof e === "string");
  const denied = arr(message.permission_denials).map((d) => str(obj(d).tool_name) ?? "tool");
  return {
    type: "result",
    ok: message.subtype === "success" && message.is_error !== true,
    summary: str(message.result) ?? (errors.length > 0 ? errors.join("; ") : str(message.subtype)),
    costUsd: num(message.total_cost_usd),
    inputTokens: sumOf(usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens),
    cacheReadTokens: num(usage.cache_read_input_tokens),
    outputTokens: num(usage.output_tokens),
    turns: num(message.num_turns),
    ...(denied.length > 0 ? { deniedTools: denied } : {}),
  };
}

function textLog(text: string | undefined): AgentEvent[] {
  return text ? [{ type: "log", text }] : [];
}
