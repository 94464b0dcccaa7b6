import { hostname } from "node:os";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseClaudeStreamLine } from "@/lib/agents/claude-stream";
import { requireAdapter } from "@/lib/agents/registry";
import { runAgent } from "@/lib/agents/run";
import { fixtureEnv, tempDir } from "@/lib/agents/testing";
import type { AgentAdapter, AgentEvent } from "@/lib/agents/types";

// Starts with a dash and carries quotes: it must reach the CLI as one intact value, never a flag.
const PROMPT = `--help me: create "hello.txt" with a greeting`;

async function runFixture(name: string, prompt = PROMPT) {
  const worktree = await tempDir();
  const events: AgentEvent[] = [];
  const logs: string[] = [];
  const outcome = await runAgent({
    adapter: requireAdapter(name),
    context: { prompt, worktree },
    env: fixtureEnv(),
    onEvent: (event) => events.push(event),
    onLine: (line) => line.stream === "stderr" && logs.push(line.line),
  });
  return { outcome, events, logs, edited: await readFile(join(worktree, "hello.txt"), "utf8") };
}

describe("runAgent end to end with stand-in CLIs replaying real transcripts", () => {
  it("refuses to start a CLI that is not on the run's PATH, naming it and how to install it", async () => {
    let spawned = false;
    const run = runAgent({ adapter: requireAdapter("qwen"), context: { prompt: "p", worktree: await tempDir() }, env: fixtureEnv(), onSpawn: () => { spawned = true; } });
    await expect(run).rejects.toThrow(`cannot start the agent: CLI \`qwen\` not installed on ${hostname()}: the qwen adapter runs it, and it is not on PATH `);
    await expect(run).rejects.toThrow("install it with `npm install -g @qwen-code/qwen-code`, or choose another adapter in the profile");
    expect(spawned).toBe(false);
  });

  it("checks the CLI a shell line runs too (cline's `cat | cline …`)", async () => {
    const run = runAgent({ adapter: requireAdapter("cline"), context: { prompt: "p", worktree: await tempDir() }, env: fixtureEnv() });
    await expect(run).rejects.toThrow(`cannot start the agent: CLI \`cline\` not installed on ${hostname()}: the cline adapter runs it, and it is not on PATH `);
  });

  it.each([
    ["claude", { ok: true, costUsd: 0.0421275, inputTokens: 70616, outputTokens: 412 }],
    ["codex", { ok: true, inputTokens: 24763, cacheReadTokens: 24448, outputTokens: 122, summary: "Created `hello.txt` with a greeting. There is no test script to run yet." }],
    ["gemini", { ok: true, inputTokens: 8642, cacheReadTokens: 4096, outputTokens: 468, summary: "Done: `hello.txt` now says hello." }],
  ])("%s: the prompt arrives intact, the file is edited, steps and result are parsed", async (name, result) => {
    const { outcome, events, logs, edited } = await runFixture(name);
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false, result: { type: "result", ...result } });
    expect(edited).toBe(`hello from ${name}\n`);
    expect(logs.join("\n")).toContain(JSON.stringify(PROMPT).slice(1, -1));
    expect(events.find((e) => e.type !== "log")).toMatchObject({ type: "init" });
    expect(events.filter((e) => e.type === "tool_use").length).toBeGreaterThanOrEqual(2);
    expect(events.some((e) => e.type === "tool_result" && e.isError)).toBe(true);
  });

  it.each(["claude", "codex", "gemini", "aider"])("%s: a 150 KB CJK prompt reaches the CLI whole, on stdin", async (name) => {
    const prompt = `${PROMPT} ${"漢字".repeat(25_600)}`;
    const { outcome, logs } = await runFixture(name, prompt);
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false });
    expect(logs).toContain(`fixture stdin ${JSON.stringify(prompt)}`);
    expect(logs.find((l) => l.startsWith("fixture argv"))!.length).toBeLessThan(300);
  });

  it("aider: plain text output becomes the agent's text, with no result event", async () => {
    const { outcome, events, logs, edited } = await runFixture("aider");
    expect(outcome).toMatchObject({ exitCode: 0, result: null });
    expect(edited).toBe("hello from aider\n");
    expect(logs).toContain(`fixture stdin ${JSON.stringify(PROMPT)}`);
    expect(events).toContainEqual({ type: "text", text: "Applied edit to hello.txt" });
  });

  it("demo: runs Ringmaster's own agent", async () => {
    const worktree = await tempDir();
    const events: AgentEvent[] = [];
    const outcome = await runAgent({
      adapter: requireAdapter("demo"),
      context: { prompt: "```file hello.txt\nhello from demo\n```\n", worktree },
      env: fixtureEnv(),
      onEvent: (event) => events.push(event),
    });
    expect(outcome).toMatchObject({ exitCode: 0, result: { ok: true, costUsd: 0, inputTokens: 0, outputTokens: 0 } });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from demo\n");
    expect(events.map((e) => e.type).filter((t) => t !== "usage")).toEqual(["init", "tool_use", "tool_result", "text", "result"]);
  });

  it("fails a CLI run without the flags its structured output needs (the stand-ins check them)", async () => {
    const worktree = await tempDir();
    const bare: AgentAdapter = { ...requireAdapter("claude"), build: () => ({ command: "claude", args: ["-p", "hi"] }) };
    const outcome = await runAgent({ adapter: bare, context: { prompt: "hi", worktree }, env: fixtureEnv() });
    expect(outcome).toMatchObject({ exitCode: 2, result: null });
  });

  it("reads events from stdout only: a JSON result echoed on stderr is a log line, not the run's result", async () => {
    // An agent that copies its input (a campaign's failure log holds an earlier run's JSON lines)
    // to stderr: the failed result in it once decided a successful architect run.
    const failed = JSON.stringify({ type: "result", subtype: "error_during_execution", is_error: true, result: "an earlier run's failure", usage: {} });
    const ok = JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", usage: {} });
    const echoing = (stdout: string): AgentAdapter => ({
      name: "echoing",
      build: () => ({ command: process.execPath, args: ["-e", `console.error(${JSON.stringify(failed)}); ${stdout}`] }),
      parseLine: parseClaudeStreamLine,
    });
    const events: AgentEvent[] = [];
    const alone = await runAgent({ adapter: echoing(""), context: { prompt: "", worktree: await tempDir() }, env: fixtureEnv(), onEvent: (e) => events.push(e) });
    expect(alone).toMatchObject({ exitCode: 0, result: null });
    expect(events).toEqual([{ type: "log", text: failed }]);
    const both = await runAgent({ adapter: echoing(`console.log(${JSON.stringify(ok)});`), context: { prompt: "", worktree: await tempDir() }, env: fixtureEnv() });
    expect(both.result).toMatchObject({ type: "result", ok: true, summary: "done" });
  });

  describe("seed 001's grace after a fresh result", () => {
    const RESULT = JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", total_cost_usd: 0.01, usage: {} });
    const lingering = (printResult: boolean): AgentAdapter => ({
      name: "lingering",
      build: () => ({
        command: process.execPath,
        args: ["-e", `${printResult ? `console.log(${JSON.stringify(RESULT)});` : ""} setTimeout(() => {}, 30000);`],
      }),
      parseLine: parseClaudeStreamLine,
    });

    it("extends the deadline once for an agent that reported its result, then stops it", async () => {
      const worktree = await tempDir();
      // The deadline leaves node time to start and print its result on a loaded machine (with
      // 300 ms, node could be killed before it printed anything).
      const outcome = await runAgent({ adapter: lingering(true), context: { prompt: "", worktree }, env: fixtureEnv(), maxDurationMs: 3_000, resultGraceMs: 300 });
      expect(outcome).toMatchObject({ timedOut: true, result: { ok: true, summary: "done" } });
      expect(outcome.durationMs).toBeGreaterThanOrEqual(3_290);
    }, 20_000);

    it("stops at the deadline an agent with no result", async () => {
      const worktree = await tempDir();
      const outcome = await runAgent({ adapter: lingering(false), context: { prompt: "", worktree }, env: fixtureEnv(), maxDurationMs: 300, resultGraceMs: 5_000 });
      expect(outcome).toMatchObject({ timedOut: true, result: null });
      expect(outcome.durationMs).toBeLessThan(5_000);
    });
  });
});
