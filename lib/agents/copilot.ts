import { logLine, obj, parseJsonObject, str, type JsonObject } from "@/lib/agents/json-line";
import { permissionArgs } from "@/lib/agents/permission-modes";
import type { AgentAdapter, AgentEvent } from "@/lib/agents/types";

// Flags checked against `copilot --help` of @github/copilot 1.0.102: without -p it runs headless
// on a piped stdin, which holds the prompt. `--output-format json` prints the session's events
// (`assistant.message`, `tool.execution_start`/`_complete`, …) and a final `result` with the exit
// code. It reports no token counts (only premium requests); --no-ask-user: nobody answers.
export const copilotAdapter: AgentAdapter = {
  name: "copilot",
  build: ({ prompt, model, extraArgs = [], permissionMode }) => ({
    command: "copilot",
    args: ["--output-format", "json", "--no-color", "--no-ask-user", ...permissionArgs("copilot", permissionMode, extraArgs), ...(model ? ["--model", model] : []), ...extraArgs],
    stdin: prompt,
  }),
  parseLine: (line) => parseCopilotLine(line),
};

export function parseCopilotLine(line: string): AgentEvent[] {
  const event = parseJsonObject(line);
  if (!event) return logLine(line);
  const data = obj(event.data);
  switch (event.type) {
    case "assistant.message": {
      const text = str(data.content);
      return text ? [{ type: "text", text }] : [];
    }
    case "tool.execution_start":
      return [{ type: "tool_use", id: str(data.toolCallId) ?? "", name: str(data.toolName) ?? "tool", input: data.arguments ?? {} }];
    case "tool.execution_complete":
      return [toolResult(data)];
    case "session.error":
      return logLine(`${str(data.errorType) ?? "error"}: ${str(data.message) ?? ""}`);
    // The model is first named as the session's tools are set up; the session id only at the end.
    case "session.tools_updated":
      return str(data.model) ? [{ type: "init", model: str(data.model) }] : [];
    case "result":
      return [...(str(event.sessionId) ? [{ type: "init", sessionId: str(event.sessionId) } as const] : []), { type: "result", ok: event.exitCode === 0 }];
    // Deltas, turn bookkeeping and ephemeral session state.
    default:
      return [];
  }
}

function toolResult(data: JsonObject): AgentEvent {
  const ok = data.success === true;
  const output = ok ? str(obj(data.result).content) : str(obj(data.error).message) ?? str(obj(data.result).content);
  return { type: "tool_result", toolUseId: str(data.toolCallId) ?? "", output: output ?? "", isError: !ok };
}
