import { startProcess, type StartedProcess } from "@/lib/spawner";
import { killMarked, signalGroup, terminateGroup } from "@/lib/agents/kill";
import { splitLines } from "@/lib/agents/lines";
import type { OutputStream } from "@/lib/agents/types";

export const DEFAULT_KILL_GRACE_MS = 5_000;
export const DEFAULT_RESULT_GRACE_MS = 120_000;

export type OutputLine = { stream: OutputStream; line: string; at: Date };

export type LaunchSpec = { command: string; args: string[]; shell?: boolean; env: Record<string, string> };

export type RunAgentProcessOptions = {
  command: string;
  args: string[];
  cwd: string;
  /** The child's whole environment: nothing is inherited from this process. */
  env: Record<string, string>;
  /** Written to the child's stdin, which is then closed (at once when there is none). */
  stdin?: string;
  shell?: boolean;
  onLine: (line: OutputLine) => void;
  onSpawn?: (pid: number) => void;
  maxDurationMs?: number;
  /** Between SIGTERM and SIGKILL of the process group. */
  killGraceMs?: number;
  /** One extension of the deadline for an agent that has just reported its result (seed 001). */
  resultGraceMs?: number;
  /** Asked when the deadline passes; true grants the `resultGraceMs` extension, once. */
  hadRecentResult?: () => boolean;
  signal?: AbortSignal;
  /** Kills the group at once, without the SIGTERM grace: a runaway agent gets no more lines. */
  stopNow?: AbortSignal;
  /**
   * A variable of `env` unique to this run: once the agent has ended, any process still holding it
   * is killed too, though it left the group (a daemon in a session of its own).
   */
  sweep?: { name: string; value: string };
  /** Rewrites the command before it starts, e.g. to start it inside the agent sandbox. */
  launch?: (spec: LaunchSpec) => LaunchSpec;
};

export type AgentProcessResult = {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
};

/**
 * Runs an agent in its own process group and resolves once it and everything it started are
 * gone and its output is read. Rejects only when the command cannot be started at all.
 */
export async function runAgentProcess(opts: RunAgentProcessOptions): Promise<AgentProcessResult> {
  const startedAt = Date.now();
  if (opts.signal?.aborted) {
    return { exitCode: null, signal: null, timedOut: false, cancelled: true, durationMs: 0 };
  }
  const spec: LaunchSpec = { command: opts.command, args: opts.args, shell: opts.shell ?? false, env: opts.env };
  const { command, args, shell, env } = opts.launch ? opts.launch(spec) : spec;
  const child = await startProcess(command, args, { cwd: opts.cwd, env, shell: shell ?? false, stdin: opts.stdin }).catch((error: Error) => {
    throw new Error(`cannot start ${opts.command} in ${opts.cwd}: ${error.message}`);
  });
  return supervise(child, opts, startedAt);
}

function supervise(child: StartedProcess, opts: RunAgentProcessOptions, startedAt: number): Promise<AgentProcessResult> {
  const { pid } = child;
  return new Promise((resolve) => {
    const lineHandler = (stream: OutputStream) => (line: string) => opts.onLine({ stream, line, at: new Date() });
    const stdout = splitLines(child.stdout, lineHandler("stdout"));
    const stderr = splitLines(child.stderr, lineHandler("stderr"));

    let timedOut = false;
    let cancelled = false;
    let cancelKill: (() => void) | undefined;
    const stop = () => {
      cancelKill ??= terminateGroup(pid, opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
    };
    let extended = false;
    const onDeadline = () => {
      if (!extended && opts.hadRecentResult?.()) {
        extended = true;
        deadline = setTimeout(onDeadline, opts.resultGraceMs ?? DEFAULT_RESULT_GRACE_MS);
        return;
      }
      timedOut = true;
      stop();
    };
    let deadline = opts.maxDurationMs === undefined ? undefined : setTimeout(onDeadline, opts.maxDurationMs);
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const onStopNow = () => {
      cancelled = true;
      signalGroup(pid, "SIGKILL");
    };
    opts.stopNow?.addEventListener("abort", onStopNow, { once: true });
    // A stop asked while the agent was being started (a spawner's start is a message away).
    if (opts.stopNow?.aborted) onStopNow();
    else if (opts.signal?.aborted) onAbort();
    // Told once a cancel or a stop can reach the agent: one that onSpawn itself causes does too.
    opts.onSpawn?.(pid);

    // Whatever the agent left running in its group would hold our pipes open and outlive the run.
    const killLeftovers = () => {
      signalGroup(pid, "SIGKILL");
      if (opts.sweep) killMarked(opts.sweep.name, opts.sweep.value);
    };
    child.once("exit", killLeftovers);
    child.once("close", (exitCode, signal) => {
      if (opts.sweep) killMarked(opts.sweep.name, opts.sweep.value);
      clearTimeout(deadline);
      cancelKill?.();
      opts.signal?.removeEventListener("abort", onAbort);
      opts.stopNow?.removeEventListener("abort", onStopNow);
      stdout.flush();
      stderr.flush();
      resolve({ exitCode, signal, timedOut, cancelled, durationMs: Date.now() - startedAt });
    });
  });
}
