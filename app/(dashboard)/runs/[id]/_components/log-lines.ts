import { parseClaudeStreamLine } from "@/lib/agents/claude-stream";
import { parseCodexLine } from "@/lib/agents/codex";
import { parseGeminiLine } from "@/lib/agents/gemini";
import type { AgentEvent } from "@/lib/agents/types";

// The same parsers the workers use turn a log line into structured steps for display.
const parsers: Record<string, (line: string) => AgentEvent[]> = {
  claude: (l) => parseClaudeStreamLine(l),
  demo: (l) => parseClaudeStreamLine(l),
  codex: (l) => parseCodexLine(l),
  gemini: (l) => parseGeminiLine(l),
};

export type Step =
  | { kind: "raw"; text: string; stderr: boolean }
  | { kind: "event"; event: AgentEvent };

export function toSteps(adapter: string, lines: readonly string[]): Step[] {
  const parse = parsers[adapter];
  const steps: Step[] = [];
  for (const line of lines) {
    const stderr = line.startsWith("[stderr] ");
    if (!parse || stderr || !line.trimStart().startsWith("{")) {
      steps.push({ kind: "raw", text: stderr ? line.slice(9) : line, stderr });
      continue;
    }
    // Usage is a counter for the run's totals, not a step of the work.
    const events = parse(line).filter((e) => e.type !== "usage");
    if (events.length === 0) continue;
    for (const event of events) steps.push(event.type === "log" ? { kind: "raw", text: event.text, stderr: false } : { kind: "event", event });
  }
  return steps;
}
