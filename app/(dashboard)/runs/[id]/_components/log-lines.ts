import { parseClaudeStreamLine } from "@/lib/agents/claude-stream";
import { parseCodexLine } from "@/lib/agents/codex";
import { parseCopilotLine } from "@/lib/agents/copilot";
import { FinalText } from "@/lib/agents/final-text";
import { parseGeminiLine } from "@/lib/agents/gemini";
import { parseOpencodeLine } from "@/lib/agents/opencode";
import { parsePiLine } from "@/lib/agents/pi";
import { parseQwenLine } from "@/lib/agents/qwen";
import type { AgentEvent } from "@/lib/agents/types";

// The same parsers the workers use turn a log line into structured steps for display.
const parsers: Record<string, (line: string) => AgentEvent[]> = {
  claude: (l) => parseClaudeStreamLine(l),
  demo: (l) => parseClaudeStreamLine(l),
  codex: (l) => parseCodexLine(l),
  gemini: (l) => parseGeminiLine(l),
  qwen: (l) => parseQwenLine(l),
  pi: (l) => parsePiLine(l),
  opencode: (l) => parseOpencodeLine(l),
  copilot: (l) => parseCopilotLine(l),
};

export type Step =
  | { kind: "raw"; text: string; stderr: boolean }
  | { kind: "event"; event: AgentEvent };

export function toSteps(adapter: string, lines: readonly string[]): Step[] {
  const parse = parsers[adapter];
  const steps: Step[] = [];
  // One "session started" step: later init events (and a usage event's model) fill in what it lacks.
  let session: Extract<AgentEvent, { type: "init" }> | null = null;
  const finalText = new FinalText();
  const sessionFact = (event: AgentEvent): boolean => {
    const fact = event.type === "init" ? event : event.type === "usage" && event.model ? { type: "init" as const, model: event.model } : null;
    if (!fact) return false;
    if (!session) {
      if (event.type === "usage") return false;
      session = { ...fact };
      steps.push({ kind: "event", event: session });
      return true;
    }
    session.model ??= fact.model;
    session.sessionId ??= fact.sessionId;
    return true;
  };
  for (const line of lines) {
    const stderr = line.startsWith("[stderr] ");
    if (!parse || stderr || !line.trimStart().startsWith("{")) {
      steps.push({ kind: "raw", text: stderr ? line.slice(9) : line, stderr });
      continue;
    }
    // Usage is a counter for the run's totals, not a step of the work.
    // A result without a summary gets the agent's last words, as the worker records it.
    const events = parse(line).filter((e) => !sessionFact(e) && e.type !== "usage").map((e) => { finalText.observe(e); return finalText.fill(e); });
    if (events.length === 0) continue;
    for (const event of events) steps.push(event.type === "log" ? { kind: "raw", text: event.text, stderr: false } : { kind: "event", event });
  }
  return steps;
}
