// Conformance of the kilo adapter with the real Kilo Code CLI (pinned, installed into a cache
// folder by the test) against a local double of an OpenAI-compatible Chat Completions API.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kiloAdapter } from "@/lib/agents/kilo";
import { RunMeter } from "@/lib/spend/meter";
import { cachedCli } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { gitWorktree, opencodeFamilyEnv, runCli, sharedConformanceCases } from "./helpers/conformance";

const VERSION = "7.7.7";
const cli = await cachedCli("@kilocode/cli", VERSION);
if ("skip" in cli) console.warn(`skipped: ${cli.skip}`);
const double = await startChatDouble("127.0.0.1", {
  call: () => ({ name: "bash", arguments: { command: "printf 'hello from kilo\\n' > hello.txt", description: "Write hello.txt" } }),
  answer: "Wrote hello.txt.",
  usage: { prompt: 1000, cached: 400, completion: 50, reasoning: 20 },
});
afterAll(() => double.stop());

async function kilo(prompt: string, signal?: AbortSignal, extra: Record<string, string> = {}) {
  const worktree = await gitWorktree();
  const env = await opencodeFamilyEnv("KILO", "bin" in cli ? cli.bin : "", double.url, extra);
  const run = await runCli(kiloAdapter, { prompt, model: "double/gpt-5", worktree }, env, signal);
  return { ...run, worktree };
}

describe.skipIf("skip" in cli)(`the real Kilo Code CLI ${VERSION}`, () => {
  it("writes the file through one tool call; steps, summary, tokens and cost are read", async () => {
    const { outcome, events, worktree, logs } = await kilo("Write hello.txt");
    expect(outcome, logs.join("\n")).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from kilo\n");
    const steps = events.filter((e) => e.type !== "log" && e.type !== "usage");
    // Kilo is read by opencode's reader: each model call's step names the session (one id for the run).
    expect(steps.map((e) => e.type)).toEqual(["init", "tool_use", "tool_result", "init", "text", "result"]);
    expect(steps[0]).toEqual({ type: "init", sessionId: expect.stringMatching(/^ses_/) });
    expect(steps[3]).toEqual(steps[0]);
    expect(steps[1]).toMatchObject({ type: "tool_use", name: "bash", input: { command: expect.stringContaining("hello.txt") } });
    expect(steps[2]).toMatchObject({ type: "tool_result", isError: false });
    expect(outcome.result).toEqual({ type: "result", ok: true, summary: "Wrote hello.txt." });
    const meter = new RunMeter({ maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null }, "gpt-5");
    for (const e of events) meter.observe(e);
    // Two model turns of 1000 input (400 cached) and 50 output (20 of them reasoning) each:
    // 1200 × $1.25 + 800 × $0.125 + 100 × $10 per million
    expect(meter.totals).toEqual({ inputTokens: 2000, outputTokens: 100, costUsd: expect.closeTo(0.0026, 12), toolCalls: 1, cacheReadTokens: 800, cacheWriteTokens: 0 });
  });

  // Kilo retries a model API error as opencode does (a 429, a 5xx or a body saying "server_error"
  // …, 2 s doubling, honouring retry-after-ms), up to KILO_SESSION_RETRY_LIMIT times (its package's
  // session retry policy; 5 when unset). With a limit of 1 and the API's retry-after-ms of 1 the run
  // fails with the message at once, instead of some 60 s and more later.
  it.each([429, 500, 529])("fails the run on a model API error %i once its retries are used up, with the CLI's message", async (status) => {
    Object.assign(double.state, { failWith: status, retryAfterMs: 1 });
    const before = double.state.requests.length;
    const { outcome } = await kilo("Write hello.txt", undefined, { KILO_SESSION_RETRY_LIMIT: "1" });
    Object.assign(double.state, { failWith: 0, retryAfterMs: null });
    expect(outcome.exitCode).toBe(1);
    expect(outcome.result).toEqual({ type: "result", ok: false, summary: `double says ${status}` });
    // The run's one model call and its one retry (5 retries without the limit).
    expect(double.state.requests.length - before).toBe(2);
  });

  sharedConformanceCases("kilo", kilo, double.state);
});
