import { logLine, num, obj, parseJsonObject, str, type JsonObject } from "@/lib/agents/json-line";
import { permissionArgs } from "@/lib/agents/permission-modes";
import type { AgentAdapter, AgentEvent } from "@/lib/agents/types";

// Flags checked against `opencode run --help` of opencode-ai 1.18.33: `run` reads the message
// from the piped stdin when none is given as an argument; `--format json` prints one event per
// line (step_start, text, tool_use, step_finish, error), each with the session id and a `part`.
// The model is `provider/model`, as opencode names it.
export const opencodeAdapter: AgentAdapter = {
  name: "opencode",
  build: ({ prompt, model, extraArgs = [], permissionMode }) => ({
    command: "opencode",
    args: ["run", "--format", "json", ...permissionArgs("opencode", permissionMode, extraArgs), ...(model ? ["--model", model] : []), ...extraArgs],
    stdin: prompt,
  }),
  parseLine: (line) => parseOpencodeLine(line),
};

export function parseOpencodeLine(line: string): AgentEvent[] {
  const event = parseJsonObject(line);
  if (!event) return logLine(line);
  const part = obj(event.part);
  switch (event.type) {
    case "text": {
      const text = str(part.text);
      return text ? [{ type: "text", text }] : [];
    }
    // Every event names the session; a step's start is the first of each model call.
    case "step_start":
      return str(event.sessionID) ? [{ type: "init", sessionId: str(event.sessionID) }] : [];
    case "tool_use":
      return toolPart(part);
    case "step_finish":
      return stepFinish(part);
    case "error": {
      const error = obj(event.error);
      return [{ type: "result", ok: false, summary: str(obj(error.data).message) ?? str(error.name) ?? "error" }];
    }
    // Reasoning parts carry no step of the work.
    default:
      return [];
  }
}

// A tool part is printed once, finished: the call and its outcome together.
function toolPart(part: JsonObject): AgentEvent[] {
  const state = obj(part.state);
  const id = str(part.callID) ?? str(part.id) ?? "";
  const isError = state.status === "error";
  return [
    { type: "tool_use", id, name: str(part.tool) ?? "tool", input: state.input ?? {} },
    { type: "tool_result", toolUseId: id, output: (isError ? str(state.error) : str(state.output)) ?? "", isError },
  ];
}

// One model call's tokens: `input` leaves out the cache reads and writes, `output` the reasoning.
// The step that ends with reason "stop" is the run's last; its result carries no totals, which
// the usage events add up.
function stepFinish(part: JsonObject): AgentEvent[] {
  const tokens = obj(part.tokens);
  const cache = obj(tokens.cache);
  const events: AgentEvent[] = [{
    type: "usage", messageId: str(part.messageID) ?? str(part.id) ?? "",
    inputTokens: num(tokens.input) ?? 0, outputTokens: (num(tokens.output) ?? 0) + (num(tokens.reasoning) ?? 0),
    cacheReadTokens: num(cache.read) ?? 0, cacheWriteTokens: num(cache.write) ?? 0,
  }];
  if (part.reason === "stop") events.push({ type: "result", ok: true });
  return events;
}
