// Conformance of the qwen adapter with the real Qwen Code CLI (pinned, installed into a cache
// folder by the test) against a local double of an OpenAI-compatible Chat Completions API.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { qwenAdapter } from "@/lib/agents/qwen";
import { RunMeter } from "@/lib/spend/meter";
import { cachedCli } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { cliEnv, gitWorktree, runCli, sharedConformanceCases } from "./helpers/conformance";

const VERSION = "0.24.4";
const cli = await cachedCli("@qwen-code/qwen-code", VERSION);
if ("skip" in cli) console.warn(`skipped: ${cli.skip}`);
const double = await startChatDouble("127.0.0.1", {
  call: () => ({ name: "run_shell_command", arguments: { command: "printf 'hello from qwen\\n' > hello.txt", is_background: false } }),
  answer: "Wrote hello.txt.",
  usage: { prompt: 1000, cached: 400, completion: 50, reasoning: 20 },
});
afterAll(() => double.stop());

async function qwen(prompt: string, signal?: AbortSignal) {
  const worktree = await gitWorktree();
  // As a profile would configure it: the team's OpenAI-compatible key and base URL in the env.
  const env = await cliEnv("bin" in cli ? cli.bin : "", { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: double.url, QWEN_CODE_SUPPRESS_YOLO_WARNING: "1" });
  const run = await runCli(qwenAdapter, { prompt, model: "gpt-5", worktree, extraArgs: ["--auth-type", "openai"] }, env, signal);
  return { ...run, worktree };
}

describe.skipIf("skip" in cli)(`the real Qwen Code CLI ${VERSION}`, () => {
  it("writes the file through one tool call; steps, summary, tokens and cost are read", async () => {
    const { outcome, events, worktree, logs } = await qwen("Write hello.txt");
    expect(outcome, logs.join("\n")).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from qwen\n");
    const steps = events.filter((e) => e.type !== "log" && e.type !== "usage");
    expect(steps.map((e) => e.type)).toEqual(["init", "tool_use", "tool_result", "text", "result"]);
    expect(steps[0]).toMatchObject({ type: "init", model: "gpt-5", sessionId: expect.any(String) });
    expect(steps[1]).toMatchObject({ type: "tool_use", name: "run_shell_command", input: { command: expect.stringContaining("hello.txt") } });
    expect(steps[2]).toMatchObject({ type: "tool_result", isError: false });
    // Two model turns of 1000 input (400 cached) and 50 output (20 of them reasoning) each.
    expect(outcome.result).toEqual({ type: "result", ok: true, summary: "Wrote hello.txt.", inputTokens: 2000, cacheReadTokens: 800, outputTokens: 100, turns: 2 });
    const meter = new RunMeter({ maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null }, "gpt-5");
    for (const e of events) meter.observe(e);
    // 1200 × $1.25 + 800 × $0.125 + 100 × $10 per million
    expect(meter.totals).toEqual({ inputTokens: 2000, outputTokens: 100, costUsd: expect.closeTo(0.0026, 12), toolCalls: 1, cacheReadTokens: 800, cacheWriteTokens: 0 });
  });

  // Qwen Code retries a 429 or 5xx by itself with backoff, so the error here is one it gives up on at once.
  it("fails the run on a model API error, with the CLI's message", async () => {
    double.state.failWith = 400;
    const { outcome } = await qwen("Write hello.txt");
    double.state.failWith = 0;
    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.result).toEqual({
      type: "result", ok: false, summary: "[API Error: 400 double says 400]", inputTokens: 0, cacheReadTokens: 0, outputTokens: 0, turns: 1, costUsd: undefined,
    });
  });

  sharedConformanceCases("qwen", qwen, double.state);
});
