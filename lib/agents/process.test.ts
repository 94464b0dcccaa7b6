import { describe, expect, it } from "vitest";
import { killMarked, markedProcesses } from "@/lib/agents/kill";
import { runAgentProcess, type OutputLine, type RunAgentProcessOptions } from "@/lib/agents/process";
import { fixtureEnv, isAlive, processGroupOf, tempDir, waitUntilGone } from "@/lib/agents/testing";

type Options = Omit<RunAgentProcessOptions, "cwd" | "env" | "onLine"> & Partial<Pick<RunAgentProcessOptions, "env">> & { onGrandchild?: () => void };

async function run({ onGrandchild, ...opts }: Options) {
  const lines: OutputLine[] = [];
  // A pid printed by the orphan tests' commands: the grandchild must be seen running first.
  let grandchild = { pid: 0, aliveWhenPrinted: false };
  const onLine = (l: OutputLine) => {
    lines.push(l);
    if (l.stream === "stdout" && /^\d+$/.test(l.line)) {
      grandchild = { pid: Number(l.line), aliveWhenPrinted: isAlive(Number(l.line)) };
      onGrandchild?.();
    }
  };
  const result = await runAgentProcess({ cwd: await tempDir(), env: fixtureEnv(), onLine, ...opts });
  const text = (stream: "stdout" | "stderr") => lines.filter((l) => l.stream === stream).map((l) => l.line);
  return { result, lines, stdout: text("stdout"), stderr: text("stderr"), grandchild };
}

async function expectNoOrphan(grandchild: { pid: number; aliveWhenPrinted: boolean }) {
  expect(grandchild.aliveWhenPrinted).toBe(true);
  expect(await waitUntilGone(grandchild.pid)).toBe(true);
}

const node = (script: string) => ({ command: process.execPath, args: ["-e", script] });

// Prints the pid of a grandchild it leaves running, then waits.
const FORKS_GRANDCHILD = { command: "sh", args: ["-c", "sleep 30 & echo $!; sleep 30"] };

describe("runAgentProcess", () => {
  it("splits output into lines across chunks, keeps split UTF-8 characters whole, and flushes a last line without newline", async () => {
    const script = `
      const w = (s, b) => new Promise((r) => s.write(b, () => setTimeout(r, 30)));
      (async () => {
        await w(process.stdout, "par");
        await w(process.stdout, "tial\\r\\nnext ");
        await w(process.stdout, Buffer.from([0xc3]));
        await w(process.stdout, Buffer.from([0xa9, 0x0a]));
        await w(process.stderr, "warn\\n");
        await w(process.stdout, "no newline at the end");
      })();`;
    const { result, stdout, stderr, lines } = await run(node(script));
    expect(result).toMatchObject({ exitCode: 0, signal: null, timedOut: false, cancelled: false });
    expect(stdout).toEqual(["partial", "next é", "no newline at the end"]);
    expect(stderr).toEqual(["warn"]);
    expect(lines.every((l) => l.at instanceof Date)).toBe(true);
  });

  it("passes exactly the environment given, runs in cwd, and writes stdin then closes it", async () => {
    const env = await run({ command: "/usr/bin/env", args: [], env: { ONLY_THIS: "1" } });
    expect(env.stdout).toEqual(["ONLY_THIS=1"]);

    const cwd = await tempDir();
    const lines: string[] = [];
    await runAgentProcess({ command: "pwd", args: [], cwd, env: fixtureEnv(), onLine: (l) => lines.push(l.line) });
    expect(lines).toEqual([cwd]);

    const cat = await run({ command: "cat", args: [], stdin: "first\nsecond" });
    expect(cat.stdout).toEqual(["first", "second"]);
    expect(cat.result.exitCode).toBe(0);
  });

  it("reports the exit code, and the pid early as the leader of its own process group", async () => {
    let pid = 0;
    let group = 0;
    const { result } = await run({
      command: "sh",
      args: ["-c", "sleep 0.1; exit 7"],
      onSpawn: (p) => {
        pid = p;
        group = processGroupOf(p);
      },
    });
    expect(result.exitCode).toBe(7);
    expect(pid).toBeGreaterThan(0);
    expect(group).toBe(pid);
  });

  it("rejects when the command cannot be started", async () => {
    await expect(run({ command: "no-such-agent-cli", args: [] })).rejects.toThrow(/cannot start no-such-agent-cli/);
    const missing = runAgentProcess({ command: "true", args: [], cwd: "/no/such/worktree", env: fixtureEnv(), onLine: () => {} });
    await expect(missing).rejects.toThrow(/cannot start true in \/no\/such\/worktree/);
  });

  // The deadlines below leave the shell time to start and print its grandchild on a loaded
  // machine (a 100-200 ms deadline could pass before the shell ran a line).
  it("after the max duration kills the whole group with SIGTERM and leaves no orphan", async () => {
    const { result, grandchild } = await run({ ...FORKS_GRANDCHILD, maxDurationMs: 2_000, killGraceMs: 5_000 });
    expect(result).toMatchObject({ exitCode: null, signal: "SIGTERM", timedOut: true, cancelled: false });
    await expectNoOrphan(grandchild);
  });

  // A daemon in a session of its own (Cline's hub daemon did this) leaves the group; it keeps the run's variables.
  // The agent waits until the daemon has its own session (it writes its pid then), so the group kill at exit cannot reach it.
  const DETACHES = { command: "sh", args: ["-c", "setsid sh -c 'echo $$ > daemon.pid; exec sleep 300' </dev/null >/dev/null 2>&1 & until [ -s daemon.pid ]; do sleep 0.01; done; cat daemon.pid"] };
  it("once the agent has ended, kills what it detached from its group when given the run's marker", async () => {
    const marker = `run-${process.pid}-${Date.now()}`;
    const { result, grandchild } = await run({ ...DETACHES, env: { ...fixtureEnv(), RINGMASTER_RUN_ID: marker }, sweep: { name: "RINGMASTER_RUN_ID", value: marker } });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    await expectNoOrphan(grandchild);
    expect(markedProcesses("RINGMASTER_RUN_ID", marker)).toEqual([]);
  });

  it("without the marker, what it detached outlives it (what the sweep prevents)", async () => {
    const marker = `run-${process.pid}-${Date.now()}-unswept`;
    const { grandchild } = await run({ ...DETACHES, env: { ...fixtureEnv(), RINGMASTER_RUN_ID: marker } });
    expect(grandchild.aliveWhenPrinted).toBe(true);
    expect(markedProcesses("RINGMASTER_RUN_ID", marker)).toEqual([grandchild.pid]);
    killMarked("RINGMASTER_RUN_ID", marker);
    expect(await waitUntilGone(grandchild.pid)).toBe(true);
  });

  it("escalates to SIGKILL after the grace when the group ignores SIGTERM", async () => {
    const { result, grandchild } = await run({
      command: "sh",
      args: ["-c", "trap '' TERM; sleep 30 & echo $!; wait"],
      maxDurationMs: 2_000,
      killGraceMs: 300,
    });
    expect(result).toMatchObject({ signal: "SIGKILL", timedOut: true });
    expect(result.durationMs).toBeGreaterThanOrEqual(2_290);
    await expectNoOrphan(grandchild);
  });

  it("cancels on abort: SIGTERM to the group, no orphan", async () => {
    const abort = new AbortController();
    const { result, grandchild } = await run({
      ...FORKS_GRANDCHILD,
      signal: abort.signal,
      // Once the grandchild runs (a fixed 150 ms could come before the shell started it).
      onGrandchild: () => abort.abort(),
    });
    expect(result).toMatchObject({ signal: "SIGTERM", timedOut: false, cancelled: true });
    await expectNoOrphan(grandchild);
  });

  it("cancels on an abort made the moment it is told of the spawn", async () => {
    const abort = new AbortController();
    const stop = new AbortController();
    const cancelled = await run({ command: "sleep", args: ["30"], signal: abort.signal, onSpawn: () => abort.abort("cancelled at once") });
    expect(cancelled.result).toMatchObject({ signal: "SIGTERM", timedOut: false, cancelled: true });
    const stopped = await run({ command: "sleep", args: ["30"], stopNow: stop.signal, onSpawn: () => stop.abort() });
    expect(stopped.result).toMatchObject({ signal: "SIGKILL", timedOut: false, cancelled: true });
  });

  it("does not start at all when already cancelled", async () => {
    let spawned = false;
    const { result } = await run({ command: "sleep", args: ["5"], signal: AbortSignal.abort(), onSpawn: () => (spawned = true) });
    expect(result).toMatchObject({ exitCode: null, cancelled: true, durationMs: 0 });
    expect(spawned).toBe(false);
  });

  it("kills what the agent left running once it exits", async () => {
    const { result, grandchild } = await run({ command: "sh", args: ["-c", "sleep 30 & echo $!"] });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    // Not the grandchild's 30 s (10 s leaves room for a loaded machine).
    expect(result.durationMs).toBeLessThan(10_000);
    await expectNoOrphan(grandchild);
  });

  it("extends the deadline once by the result grace when the agent just reported a result", async () => {
    let asked = 0;
    const { result } = await run({
      command: "sleep",
      args: ["30"],
      maxDurationMs: 150,
      resultGraceMs: 250,
      hadRecentResult: () => (asked++, true),
    });
    expect(result).toMatchObject({ timedOut: true, signal: "SIGTERM" });
    expect(result.durationMs).toBeGreaterThanOrEqual(390);
    expect(asked).toBe(1);
  });

  it("lets an agent that finishes within the result grace end normally", async () => {
    const { result } = await run({
      command: "sleep",
      args: ["0.4"],
      maxDurationMs: 150,
      // Generous: the 0.4 s sleep must end within it even when starting it is slow.
      resultGraceMs: 5_000,
      hadRecentResult: () => true,
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
  });

  it("kills at the deadline without a recent result", async () => {
    const { result } = await run({ command: "sleep", args: ["30"], maxDurationMs: 150, resultGraceMs: 5_000, hadRecentResult: () => false });
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it("runs through /bin/sh when asked", async () => {
    const { stdout } = await run({ command: "echo one && echo two", args: [], shell: true });
    expect(stdout).toEqual(["one", "two"]);
  });
});
