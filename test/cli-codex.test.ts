// Conformance of the codex adapter with the real Codex CLI (pinned, installed into a cache
// folder by the test) against a local double of OpenAI's Responses API.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codexAdapter } from "@/lib/agents/codex";
import { RunMeter } from "@/lib/spend/meter";
import { cachedCli } from "./helpers/agent-cli-cache";
import { cliEnv, gitWorktree, runCli, sharedConformanceCases } from "./helpers/conformance";
import { startResponsesDouble } from "./helpers/responses-double";

const VERSION = "0.169.0";
const cli = await cachedCli("@openai/codex", VERSION);
if ("skip" in cli) console.warn(`skipped: ${cli.skip}`);
const double = await startResponsesDouble("127.0.0.1", {
  command: () => "printf 'hello from codex\\n' > hello.txt",
  answer: "Wrote hello.txt.",
  usage: { input: 1000, cached: 400, output: 50, reasoning: 20 },
});
afterAll(() => double.stop());

// As a profile would configure it: a provider of its own through extra arguments, no retries.
const provider = ["model_provider=\"double\"", "model_providers.double.name=\"double\"", `model_providers.double.base_url="${double.url}"`,
  "model_providers.double.env_key=\"DOUBLE_API_KEY\"", "model_providers.double.wire_api=\"responses\"",
  "model_providers.double.request_max_retries=0", "model_providers.double.stream_max_retries=0"].flatMap((c) => ["-c", c]);

async function codex(prompt: string, signal?: AbortSignal) {
  const worktree = await gitWorktree();
  const env = await cliEnv("bin" in cli ? cli.bin : "", { DOUBLE_API_KEY: "sk-test" });
  const run = await runCli(codexAdapter, { prompt, model: "gpt-5", worktree, extraArgs: provider }, { ...env, CODEX_HOME: env.HOME }, signal);
  return { ...run, worktree };
}

describe.skipIf("skip" in cli)(`the real Codex CLI ${VERSION}`, () => {
  it("writes the file through one tool call; steps, summary, tokens and cost are read", async () => {
    double.state.failWith = 0;
    const { outcome, events, worktree } = await codex("Write hello.txt");
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from codex\n");
    const steps = events.filter((e) => e.type !== "log");
    expect(steps.map((e) => e.type)).toEqual(["init", "tool_use", "tool_result", "text", "result"]);
    expect(steps[1]).toMatchObject({ type: "tool_use", name: "command_execution", input: { command: expect.stringContaining("hello.txt") } });
    expect(steps[2]).toMatchObject({ type: "tool_result", isError: false });
    // Two model turns of 1000 input (400 cached) and 50 output (20 of them reasoning) each.
    expect(outcome.result).toEqual({ type: "result", ok: true, inputTokens: 2000, cacheReadTokens: 800, outputTokens: 100, summary: "Wrote hello.txt." });
    const meter = new RunMeter({ maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null }, "gpt-5");
    for (const e of events) meter.observe(e);
    // 1200 × $1.25 + 800 × $0.125 + 100 × $10 per million
    expect(meter.totals).toEqual({ inputTokens: 2000, outputTokens: 100, costUsd: expect.closeTo(0.0026, 12), toolCalls: 1, cacheReadTokens: 800, cacheWriteTokens: 0 });
  });

  it.each([
    [429, "exceeded retry limit, last status: 429 Too Many Requests"],
    // Codex words any 5xx as overload, whatever the body says.
    [500, "We’re currently experiencing high demand, which may cause temporary errors."],
  ])("fails the run on a model API error %i, with the CLI's message", async (status, message) => {
    double.state.failWith = status;
    const { outcome } = await codex("Write hello.txt");
    double.state.failWith = 0;
    expect(outcome.exitCode).toBe(1);
    expect(outcome.result).toEqual({ type: "result", ok: false, summary: message });
  });

  sharedConformanceCases("codex", codex, double.state);
});
