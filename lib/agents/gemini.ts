import { logLine, num, obj, parseJsonObject, str, type JsonObject } from "@/lib/agents/json-line";
import { permissionArgs } from "@/lib/agents/permission-modes";
import type { AgentAdapter, AgentEvent } from "@/lib/agents/types";

// Flags checked against `gemini --help` of @google/gemini-cli 0.61.0; events are its
// JsonStreamEventType (bundle: packages/core/src/output/types.ts). Without --prompt, gemini runs
// headless on a piped stdin and reads the prompt from it: no prompt text is read as a flag, and a
// long one does not hit the kernel's 128 KiB limit on one argument. --skip-trust because a fresh
// worktree is an untrusted folder, where headless gemini refuses to run. The approval mode is the
// profile's (permission-modes.ts).
export const geminiAdapter: AgentAdapter = {
  name: "gemini",
  build: ({ prompt, model, extraArgs = [], permissionMode }) => ({
    command: "gemini",
    args: [
      "--output-format", "stream-json",
      ...permissionArgs("gemini", permissionMode, extraArgs),
      "--skip-trust",
      ...(model ? ["--model", model] : []),
      ...extraArgs,
    ],
    stdin: prompt,
  }),
  parseLine: (line) => parseGeminiLine(line),
};

export function parseGeminiLine(line: string): AgentEvent[] {
  const event = parseJsonObject(line);
  if (!event) return logLine(line);
  switch (event.type) {
    case "init":
      return [{ type: "init", model: str(event.model), sessionId: str(event.session_id) }];
    case "message": {
      const text = str(event.content);
      // The user message is the prompt echoed back.
      if (event.role !== "assistant" || !text) return [];
      return [event.delta === true ? { type: "text", text, delta: true } : { type: "text", text }];
    }
    case "tool_use":
      return [{ type: "tool_use", id: str(event.tool_id) ?? "", name: str(event.tool_name) ?? "tool", input: event.parameters ?? {} }];
    case "tool_result": {
      const isError = event.status === "error";
      const output = (isError ? str(obj(event.error).message) : undefined) ?? str(event.output) ?? "";
      return [{ type: "tool_result", toolUseId: str(event.tool_id) ?? "", output, isError }];
    }
    case "error":
      return logLine(`${str(event.severity) ?? "error"}: ${str(event.message) ?? ""}`);
    case "result":
      return [resultEvent(event)];
    default:
      return logLine(line);
  }
}

// Gemini's stats (convertToStreamStats): input_tokens is the prompt including `cached`;
// output_tokens leaves out thinking, which total_tokens counts, so output is total − input.
function resultEvent(event: JsonObject): AgentEvent {
  const stats = obj(event.stats);
  const input = num(stats.input_tokens);
  const total = num(stats.total_tokens);
  return {
    type: "result",
    ok: event.status === "success",
    summary: str(obj(event.error).message),
    inputTokens: input,
    cacheReadTokens: num(stats.cached),
    outputTokens: input !== undefined && total !== undefined ? Math.max(total - input, num(stats.output_tokens) ?? 0) : num(stats.output_tokens),
  };
}
