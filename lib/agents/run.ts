import { FinalText } from "@/lib/agents/final-text";
import { missingCli } from "@/lib/agents/installed";
import { logLine } from "@/lib/agents/json-line";
import { runAgentProcess, type AgentProcessResult, type OutputLine, type RunAgentProcessOptions } from "@/lib/agents/process";
import type { AgentAdapter, AgentEvent, BuildContext, ResultEvent } from "@/lib/agents/types";

/** Seed 001: a result this recent means the agent is wrapping up, so its deadline is extended once. */
export const RECENT_RESULT_WINDOW_MS = 60_000;

export type RunAgentOptions = Omit<
  RunAgentProcessOptions,
  "command" | "args" | "cwd" | "stdin" | "shell" | "onLine" | "hadRecentResult"
> & {
  adapter: AgentAdapter;
  context: BuildContext;
  onEvent?: (event: AgentEvent, at: Date) => void;
  onLine?: (line: OutputLine) => void;
};

export type AgentRunOutcome = AgentProcessResult & { result: ResultEvent | null };

/** Builds the adapter's command, runs it in the worktree and parses its output as it comes. */
export async function runAgent(opts: RunAgentOptions): Promise<AgentRunOutcome> {
  const { adapter, context, onEvent, onLine, ...processOptions } = opts;
  const last: { result: ResultEvent | null; at: number } = { result: null, at: -Infinity };
  const finalText = new FinalText();
  const { program, ...command } = adapter.build(context);
  const path = processOptions.env.PATH;
  const checked = command.shell ? program : command.command;
  const missing = checked === undefined || path === undefined ? null : missingCli(adapter.name, checked, path);
  if (missing) throw new Error(`cannot start the agent: ${missing}`);
  const outcome = await runAgentProcess({
    ...processOptions,
    ...command,
    cwd: context.worktree,
    hadRecentResult: () => Date.now() - last.at <= RECENT_RESULT_WINDOW_MS,
    onLine: (line) => {
      onLine?.(line);
      // Every CLI writes its events to stdout; stderr is diagnostics. A JSON line there (an agent
      // echoing a log it was given, say) is text, never a result that would decide the run.
      const events = line.stream === "stderr" ? logLine(line.line) : adapter.parseLine(line.line, line.stream);
      for (const parsed of events) {
        finalText.observe(parsed);
        const event = finalText.fill(parsed);
        if (event.type === "result") {
          last.result = event;
          last.at = line.at.getTime();
        }
        onEvent?.(event, line.at);
      }
    },
  });
  return { ...outcome, result: last.result };
}
