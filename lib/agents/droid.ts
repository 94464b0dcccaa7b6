import { logLine, num, obj, parseJsonObject, str, sumOf, type JsonObject } from "@/lib/agents/json-line";
import { permissionArgs } from "@/lib/agents/permission-modes";
import type { AgentAdapter, AgentEvent } from "@/lib/agents/types";

// Flags checked against `droid exec --help` of Factory's droid 0.215.0: without a prompt argument
// `exec` reads the prompt from the piped stdin. `--output-format stream-json` prints
// system/init (session, model), message, tool_call, tool_result and a final `completion` with
// the run's usage; a model of one's own (`custom:<name>`) comes from `customModels` in
// ~/.factory/settings.json, with no Factory account.
export const droidAdapter: AgentAdapter = {
  name: "droid",
  build: ({ prompt, model, extraArgs = [], permissionMode }) => ({
    command: "droid",
    args: ["exec", "--output-format", "stream-json", ...permissionArgs("droid", permissionMode, extraArgs), ...(model ? ["--model", model] : []), ...extraArgs],
    stdin: prompt,
  }),
  parseLine: (line) => parseDroidLine(line),
  // After a model API error it cannot get past (a 5xx, retried for about 90 s) droid exits 0
  // with no `completion` line: that run did not finish.
  resultRequired: true,
};

export function parseDroidLine(line: string): AgentEvent[] {
  const event = parseJsonObject(line);
  if (!event) return logLine(line);
  switch (event.type) {
    case "system":
      return event.subtype === "init" ? [{ type: "init", model: str(event.model), sessionId: str(event.session_id) }] : [];
    case "message": {
      const text = event.role === "assistant" ? str(event.text) : undefined;
      return text ? [{ type: "text", text }] : [];
    }
    case "tool_call":
      return [{ type: "tool_use", id: str(event.id) ?? "", name: str(event.toolName) ?? str(event.toolId) ?? "tool", input: event.parameters ?? {} }];
    case "tool_result":
      return [toolResult(event)];
    case "completion":
      return [completion(event)];
    // The model API's error comes from the agent loop; the CLI then adds a bare "Exec failed".
    case "error":
      return event.source === "cli"
        ? logLine(`error: ${str(event.message) ?? ""}`)
        : [{ type: "result", ok: false, summary: str(event.message) ?? "droid reported an error" }];
    default:
      return [];
  }
}

function toolResult(event: JsonObject): AgentEvent {
  const isError = event.isError === true;
  const value = event.value;
  const output = isError ? str(obj(event.error).message) ?? "" : typeof value === "string" ? value : JSON.stringify(value ?? "");
  return { type: "tool_result", toolUseId: str(event.id) ?? "", output, isError };
}

/** droid's `input_tokens` leave out the cache reads and writes, which are added. */
function completion(event: JsonObject): AgentEvent {
  const usage = obj(event.usage);
  return {
    type: "result",
    ok: true,
    summary: str(event.finalText),
    inputTokens: sumOf(usage.input_tokens, usage.cache_read_input_tokens, usage.cache_creation_input_tokens),
    cacheReadTokens: num(usage.cache_read_input_tokens),
    outputTokens: num(usage.output_tokens),
    turns: num(event.numTurns),
  };
}
