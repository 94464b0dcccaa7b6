import { parseClaudeStreamLine } from "@/lib/agents/claude-stream";
import { obj, parseJsonObject, str } from "@/lib/agents/json-line";
import { permissionArgs } from "@/lib/agents/permission-modes";
import type { AgentAdapter, AgentEvent } from "@/lib/agents/types";

// Flags checked against `qwen --help` of @qwen-code/qwen-code 0.24.4. Without a prompt argument
// qwen runs headless on a piped stdin and reads the prompt from it. Its stream-json lines are
// Claude Code's SDK messages (system/init, assistant, user tool_result, result), so the Claude
// reader parses them; only the token counts differ: Qwen Code reports an OpenAI-style
// `input_tokens` that already includes `cache_read_input_tokens`.
export const qwenAdapter: AgentAdapter = {
  name: "qwen",
  build: ({ prompt, model, extraArgs = [], permissionMode }) => ({
    command: "qwen",
    args: ["--output-format", "stream-json", ...permissionArgs("qwen", permissionMode, extraArgs), ...(model ? ["--model", model] : []), ...extraArgs],
    stdin: prompt,
  }),
  parseLine: (line) => parseQwenLine(line),
};

export function parseQwenLine(line: string): AgentEvent[] {
  return parseClaudeStreamLine(line).map((event) => {
    // The Claude reader adds the cache reads to the input; Qwen's input holds them already.
    if (event.type === "result") {
      // A failed run says why in `error.message` (an API error, say), not in `result`.
      const error = event.ok ? undefined : str(obj(parseJsonObject(line)?.error).message);
      const inputTokens = event.inputTokens === undefined ? undefined : event.inputTokens - (event.cacheReadTokens ?? 0);
      return { ...event, inputTokens, summary: error ?? event.summary };
    }
    // A usage event's input excludes the cached part.
    if (event.type === "usage") return { ...event, inputTokens: Math.max(0, event.inputTokens - event.cacheReadTokens) };
    return event;
  });
}
