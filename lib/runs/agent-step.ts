import { getDb } from "@/lib/db";
import type { LaunchSpec } from "@/lib/agents/process";
import { runAgent } from "@/lib/agents/run";
import { exitVerdict } from "@/lib/agents/exit-verdict";
import type { AgentAdapter, BuildContext } from "@/lib/agents/types";
import type { RunOutcome } from "@/lib/runs/complete";
import type { RunLogSink } from "@/lib/runs/log-sink";
import { runVerifyCommand } from "@/lib/runs/verify";
import { RunGuard, type RunLimits } from "@/lib/runs/guard";
import { LedgerWriter, type LedgerRun } from "@/lib/budgets/ledger";
import { alertBudgets } from "@/lib/threads/notices";
import { whenPostgresAnswers } from "@/lib/runs/backoff";
import { getLogger } from "@/lib/log";
import { isSessionId } from "@/lib/agents/session-id";

/**
 * Runs the agent, then the project's verify command, both through `launch` (the sandbox).
 * "succeeded" here means the work may be committed; the caller commits it.
 */
export async function runAgentAndVerify(input: {
  runId: string;
  ledger: LedgerRun;
  profile: { completionSignal: string | null };
  settings: { maxRunDurationMs: number; verifyCommand: string | null };
  limits: RunLimits;
  adapter: AgentAdapter;
  context: BuildContext;
  env: Record<string, string>;
  launch: (spec: LaunchSpec) => LaunchSpec;
  signal: AbortSignal;
  log: RunLogSink;
  /** Called once the agent's process exists. */
  onSpawn?: () => void;
}): Promise<RunOutcome> {
  const { runId, profile, settings, signal, log } = input;
  const db = getDb();
  let sawSignal = !profile.completionSignal;
  const guard = new RunGuard(input.limits, input.context.model, (reason) => log.push(`[ringmaster] ${reason}`));
  const saveUsage = usageSaver(runId, guard);
  // Spend goes to the ledger line by line as it arrives, so every worker sees it against the budgets.
  const project = { id: input.ledger.projectId, teamId: input.ledger.teamId };
  const ledger = new LedgerWriter(input.ledger, () => alertBudgets(project), (err) => {
    getLogger("runs").warn({ runId, err: err.message }, "spend ledger write failed; retried with the next line");
  });
  let modelSaved: Promise<unknown> = Promise.resolve();
  let modelSeen = false;
  let sessionSaved: Promise<unknown> = Promise.resolve();
  let sessionSeen = false;
  const exit = await runAgent({
    adapter: input.adapter,
    context: input.context,
    env: input.env,
    launch: input.launch,
    // Unsandboxed, a process the agent detached from its group would outlive the run; it still
    // carries the run's id (sandboxed, it dies with the run's pid namespace anyway).
    sweep: { name: "RINGMASTER_RUN_ID", value: runId },
    signal,
    stopNow: guard.signal,
    maxDurationMs: settings.maxRunDurationMs,
    onSpawn: (pid) => {
      input.onSpawn?.();
      void db.run.update({ where: { id: runId }, data: { pid } }).catch(() => {});
    },
    onLine: ({ line, stream }) => {
      log.push(stream === "stderr" ? `[stderr] ${line}` : line);
      if (profile.completionSignal && line.includes(profile.completionSignal)) sawSignal = true;
    },
    onEvent: (e) => {
      const lines = guard.observe(e);
      if (lines.length) ledger.put(lines);
      if (e.type === "usage" || e.type === "result") saveUsage();
      if (e.type === "result") void db.run.update({ where: { id: runId }, data: { lastResultAt: new Date() } }).catch(() => {});
      // A profile that names no model runs the CLI's own default: the run records which it was,
      // from the CLI's init line or (pi names it nowhere else) its first model call's usage.
      if ((e.type === "init" || e.type === "usage") && e.model && !input.context.model && !modelSeen) {
        modelSeen = true;
        modelSaved = db.run.updateMany({ where: { id: runId, model: null }, data: { model: e.model } }).catch(() => {});
      }
      // The first session id the CLI names is the run's (a retry's new run gets its own).
      if (e.type === "init" && e.sessionId && !sessionSeen && isSessionId(e.sessionId)) {
        sessionSeen = true;
        sessionSaved = db.run.updateMany({ where: { id: runId, sessionId: null }, data: { sessionId: e.sessionId } }).catch(() => {});
      }
    },
  });

  await Promise.all([modelSaved, sessionSaved]);
  await whenPostgresAnswers(() => ledger.flush(), { runId, step: "ledger" });
  const used = guard.totals;
  const base = { exitCode: exit.exitCode, signal: exit.signal, summary: exit.result?.summary, costUsd: used?.costUsd, inputTokens: used?.inputTokens, outputTokens: used?.outputTokens };
  // A person decides whether a runaway is worth another try: no automatic retry.
  if (guard.stopReason) return { ...base, status: "failed", error: guard.stopReason, retry: false };
  if (exit.timedOut) return { ...base, status: "timed_out", error: `exceeded the maximum duration of ${settings.maxRunDurationMs} ms` };
  if (signal.aborted) return { ...base, status: "cancelled", error: String(signal.reason) };
  // The CLI's own words on why it failed (a model API error, say) lead the run's error, which
  // heads the prompt's failure log (the log's tail follows it).
  const verdict = exitVerdict(input.adapter, exit);
  if (verdict) {
    if (verdict.note) log.push(`[ringmaster] ${verdict.error}`);
    return { ...base, status: "failed", error: verdict.error };
  }
  if (!sawSignal) return { ...base, status: "failed", error: `completion signal "${profile.completionSignal}" not printed` };
  const denied = deniedCalls(exit.result?.deniedTools);
  if (denied) {
    log.push(`[ringmaster] ${denied}`);
    // The same mode refuses the same calls again: a person changes the profile before a retry.
    return { ...base, status: "failed", error: denied, retry: false };
  }
  if (settings.verifyCommand) {
    const verify = await runVerifyCommand(settings.verifyCommand, input.context.worktree, input.env, input.launch);
    log.push(`[ringmaster] verify \`${settings.verifyCommand}\`: ${verify.ok ? "passed" : "FAILED"}`);
    if (!verify.ok) return { ...base, status: "failed", error: "verify command failed", failureLog: verify.output };
  }
  return { ...base, status: "succeeded" };
}

/** "2 tool calls (Bash ×2) were denied …" for a CLI whose permission mode refused calls, else null. */
function deniedCalls(tools: string[] | undefined): string | null {
  if (!tools?.length) return null;
  const counts = new Map<string, number>();
  for (const t of tools) counts.set(t, (counts.get(t) ?? 0) + 1);
  const names = [...counts].map(([t, n]) => (n > 1 ? `${t} ×${n}` : t)).join(", ");
  const calls = tools.length === 1 ? "1 tool call" : `${tools.length} tool calls`;
  return `${calls} (${names}) denied by the agent's permission mode; the work may be incomplete. Change the profile's permission mode to allow them`;
}

// What a run has used so far is on its row while it runs (at most one write a second), so a
// worker that dies mid-run leaves its spend behind; the outcome writes the final figures.
function usageSaver(runId: string, guard: RunGuard): () => void {
  let savedAt = 0;
  return () => {
    const used = guard.totals;
    if (!used || Date.now() - savedAt < 1000) return;
    savedAt = Date.now();
    void getDb().run.updateMany({
      where: { id: runId, status: "running" },
      data: { costUsd: used.costUsd, inputTokens: used.inputTokens, outputTokens: used.outputTokens },
    }).catch(() => {});
  };
}
