import type { AgentEvent, OutputStream } from "@/lib/agents/types";

/** For CLIs without structured output: stdout is what the agent says, stderr is diagnostics. */
export function parsePlainTextLine(line: string, stream: OutputStream): AgentEvent[] {
  if (line.trim() === "") return [];
  return [stream === "stdout" ? { type: "text", text: line } : { type: "log", text: line }];
}
