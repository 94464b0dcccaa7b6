// Conformance of the cline adapter with the real Cline CLI (pinned, installed into a cache
// folder by the test) against a local double of an OpenAI-compatible Chat Completions API.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { clineAdapter } from "@/lib/agents/cline";
import { RunMeter } from "@/lib/spend/meter";
import { cachedCli } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { markedProcesses } from "@/lib/agents/kill";
import { cliEnv, gitWorktree, runCli, sharedConformanceCases } from "./helpers/conformance";

const run = promisify(execFile);
const VERSION = "3.0.65";
const cli = await cachedCli("cline", VERSION);
if ("skip" in cli) console.warn(`skipped: ${cli.skip}`);
const double = await startChatDouble("127.0.0.1", {
  call: () => ({ name: "run_commands", arguments: { commands: ["printf 'hello from cline\\n' > hello.txt"] } }),
  answer: "Wrote hello.txt.",
  usage: { prompt: 1000, cached: 400, completion: 50, reasoning: 20 },
});
afterAll(() => double.stop());

async function cline(prompt: string, signal?: AbortSignal) {
  const worktree = await gitWorktree();
  const env = await cliEnv("bin" in cli ? cli.bin : "", {});
  // As a person would configure it: an OpenAI-compatible provider in the run's own HOME.
  await run("cline", ["auth", "-p", "openai", "-k", "sk-test", "-m", "gpt-5", "-b", double.url], { env: env as unknown as NodeJS.ProcessEnv, timeout: 60_000 });
  const result = await runCli(clineAdapter, { prompt, model: "gpt-5", worktree }, env, signal);
  return { ...result, worktree, home: env.HOME };
}

describe.skipIf("skip" in cli)(`the real Cline CLI ${VERSION}`, () => {
  it("writes the file through one tool call; steps, summary, tokens and cost are read", async () => {
    const { outcome, events, worktree, logs } = await cline("Write hello.txt");
    expect(outcome, logs.join("\n")).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from cline\n");
    const steps = events.filter((e) => e.type !== "log" && e.type !== "usage");
    expect(steps.map((e) => e.type)).toEqual(["init", "tool_use", "tool_result", "text", "init", "result"]);
    expect(steps[0]).toEqual({ type: "init", sessionId: expect.stringMatching(/^conv_/) });
    expect(steps[1]).toMatchObject({ type: "tool_use", id: "call_1", name: "run_commands", input: { commands: ["printf 'hello from cline\\n' > hello.txt"] } });
    expect(steps[2]).toMatchObject({ type: "tool_result", toolUseId: "call_1", isError: false });
    expect(steps[3]).toEqual({ type: "text", text: "Wrote hello.txt." });
    expect(steps[4]).toEqual({ type: "init", model: "gpt-5" });
    // Two model turns of 1000 input (400 cached) and 50 output (20 of them reasoning) each.
    expect(outcome.result).toEqual({ type: "result", ok: true, summary: "Wrote hello.txt.", inputTokens: 2000, cacheReadTokens: 800, outputTokens: 100, turns: 2, costUsd: undefined });
    const meter = new RunMeter({ maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null }, "gpt-5");
    for (const e of events) meter.observe(e);
    // 1200 × $1.25 + 800 × $0.125 + 100 × $10 per million
    expect(meter.totals).toEqual({ inputTokens: 2000, outputTokens: 100, costUsd: expect.closeTo(0.0026, 12), toolCalls: 1, cacheReadTokens: 800, cacheWriteTokens: 0 });
  });

  it("fails the run on a model API error, with the CLI's message", async () => {
    double.state.failWith = 500;
    const { outcome } = await cline("Write hello.txt");
    double.state.failWith = 0;
    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.result).toMatchObject({ type: "result", ok: false, summary: "double says 500", inputTokens: 0, outputTokens: 0 });
  });

  // Cline's default session backend starts a hub daemon (`cline --cline-hub-daemon`, detached into a
  // session of its own) that outlived the run; sandboxed, it died with the run's pid namespace.
  it("leaves no process behind once an unsandboxed run has ended", async () => {
    const { outcome, home, logs } = await cline("Write hello.txt");
    expect(outcome, logs.join("\n")).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(markedProcesses("HOME", home)).toEqual([]);
  });

  sharedConformanceCases("cline", cline, double.state);
});
