// Conformance of the kilo adapter with the real Kilo Code CLI (pinned, installed into a cache
// folder by the test) against a local double of an OpenAI-compatible Chat Completions API.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kiloAdapter } from "@/lib/agents/kilo";
import { RunMeter } from "@/lib/spend/meter";
import { cachedCli, CLI_CACHE } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { cliEnv, gitWorktree, runCli, sharedConformanceCases } from "./helpers/conformance";

const VERSION = "7.7.7";
const cli = await cachedCli("@kilocode/cli", VERSION);
if ("skip" in cli) console.warn(`skipped: ${cli.skip}`);
const double = await startChatDouble("127.0.0.1", {
  call: () => ({ name: "bash", arguments: { command: "printf 'hello from kilo\\n' > hello.txt", description: "Write hello.txt" } }),
  answer: "Wrote hello.txt.",
  usage: { prompt: 1000, cached: 400, completion: 50, reasoning: 20 },
});
afterAll(() => double.stop());

async function kilo(prompt: string, signal?: AbortSignal) {
  const worktree = await gitWorktree();
  // As a profile would configure it: an OpenAI-compatible provider in KILO_CONFIG_CONTENT.
  // Kilo (an opencode fork) installs the provider's SDK package into its cache on first use: one cache for all runs.
  const provider = { npm: "@ai-sdk/openai-compatible", name: "Double", options: { baseURL: double.url, apiKey: "sk-test" }, models: { "gpt-5": { name: "GPT-5" } } };
  const env = await cliEnv("bin" in cli ? cli.bin : "", {
    KILO_CONFIG_CONTENT: JSON.stringify({ provider: { double: provider }, small_model: "double/gpt-5" }),
    XDG_CACHE_HOME: join(CLI_CACHE, "kilo-cache"), KILO_DISABLE_MODELS_FETCH: "1", KILO_DISABLE_AUTOUPDATE: "1",
  });
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
    expect(meter.totals).toEqual({ inputTokens: 2000, outputTokens: 100, costUsd: expect.closeTo(0.0026, 12), toolCalls: 1 });
  });

  // Kilo retries a model API error as opencode does: a 400 was still being retried after 90 s,
  // so this test does not wait it out. The error event it then prints is opencode's, read by the
  // same reader and replayed in lib/agents/opencode.test.ts.

  sharedConformanceCases("kilo", kilo, double.state);
});
