import type { AgentAdapter, AgentEvent } from "@/lib/agents/types";

type ResultEvent = Extract<AgentEvent, { type: "result" }>;

/**
 * Whether a CLI's exit says its run failed, for the server's workers and the remote runners
 * alike: a non-zero exit (with the CLI's own words, when its result gave them), a failed result
 * line behind an exit 0 (pi after a model API error), or no result line from a CLI that always
 * prints one when it finished (droid after its retries of a 5xx). `note` marks a reason the run's
 * log should state, because the CLI's own output does not show it. Null: nothing says it failed.
 */
export function exitVerdict(
  adapter: Pick<AgentAdapter, "name" | "resultRequired">,
  exit: { exitCode: number | null; signal: string | null; result: ResultEvent | null },
): { error: string; note: boolean } | null {
  const failed = exit.result !== null && !exit.result.ok;
  const why = failed ? exit.result?.summary?.trim() || null : null;
  if (exit.exitCode !== 0) return { error: `agent exited with ${exit.exitCode ?? exit.signal}${why ? `: ${why}` : ""}`, note: false };
  if (failed) return { error: `the agent reported a failure: ${why ?? "no reason given"}`, note: true };
  if (adapter.resultRequired && !exit.result) return { error: `${adapter.name} exited 0 without its final result line: the run did not finish`, note: true };
  return null;
}
