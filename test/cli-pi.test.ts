// Conformance of the pi adapter with the real pi coding agent (pinned, installed into a cache
// folder by the test) against a local double of an OpenAI-compatible Chat Completions API.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { piAdapter } from "@/lib/agents/pi";
import { RunMeter } from "@/lib/spend/meter";
import { cachedCli } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { cliEnv, gitWorktree, runCli, sharedConformanceCases } from "./helpers/conformance";

const VERSION = "0.73.1";
const cli = await cachedCli("@mariozechner/pi-coding-agent", VERSION);
if ("skip" in cli) console.warn(`skipped: ${cli.skip}`);
const double = await startChatDouble("127.0.0.1", {
  call: () => ({ name: "bash", arguments: { command: "printf 'hello from pi\\n' > hello.txt" } }),
  answer: "Wrote hello.txt.",
  usage: { prompt: 1000, cached: 400, completion: 50, reasoning: 20 },
});
afterAll(() => double.stop());

async function pi(prompt: string, signal?: AbortSignal) {
  const worktree = await gitWorktree();
  const env = await cliEnv("bin" in cli ? cli.bin : "", { DOUBLE_API_KEY: "sk-test" });
  // pi reaches an OpenAI-compatible endpoint as a provider of its models.json, here in the run's own HOME.
  await mkdir(join(env.HOME, ".pi", "agent"), { recursive: true });
  const provider = { baseUrl: double.url, api: "openai-completions", apiKey: "DOUBLE_API_KEY", models: [{ id: "gpt-5" }] };
  await writeFile(join(env.HOME, ".pi", "agent", "models.json"), JSON.stringify({ providers: { double: provider } }));
  const run = await runCli(piAdapter, { prompt, model: "double/gpt-5", worktree }, env, signal);
  return { ...run, worktree };
}

describe.skipIf("skip" in cli)(`the real pi coding agent ${VERSION}`, () => {
  it("writes the file through one tool call; steps, summary, tokens and cost are read", async () => {
    const { outcome, events, worktree, logs } = await pi("Write hello.txt");
    expect(outcome, logs.join("\n")).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from pi\n");
    const steps = events.filter((e) => e.type !== "log" && e.type !== "usage");
    expect(steps.map((e) => e.type)).toEqual(["init", "tool_use", "tool_result", "text", "result"]);
    expect(steps[0]).toMatchObject({ type: "init", sessionId: expect.any(String) });
    expect(steps[1]).toMatchObject({ type: "tool_use", name: "bash", input: { command: expect.stringContaining("hello.txt") } });
    expect(steps[2]).toMatchObject({ type: "tool_result", isError: false });
    // Two model turns of 1000 input (400 cached) and 50 output (20 of them reasoning) each.
    expect(outcome.result).toEqual({ type: "result", ok: true, summary: "Wrote hello.txt.", inputTokens: 2000, cacheReadTokens: 800, outputTokens: 100, turns: 2 });
    expect(events.filter((e) => e.type === "usage").map((e) => e.type === "usage" && e.model)).toEqual(["gpt-5", "gpt-5"]);
    const meter = new RunMeter({ maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null }, "gpt-5");
    for (const e of events) meter.observe(e);
    // 1200 × $1.25 + 800 × $0.125 + 100 × $10 per million
    expect(meter.totals).toEqual({ inputTokens: 2000, outputTokens: 100, costUsd: expect.closeTo(0.0026, 12), toolCalls: 1, cacheReadTokens: 800, cacheWriteTokens: 0 });
  });

  // pi exits 0 after a model API error: the failed result is what tells the run it failed.
  it.each([400])("reports a model API error %i as a failed result with the CLI's message", async (status) => {
    double.state.failWith = status;
    const { outcome } = await pi("Write hello.txt");
    double.state.failWith = 0;
    expect(outcome.exitCode).toBe(0);
    expect(outcome.result).toEqual({ type: "result", ok: false, summary: `${status} double says ${status}`, inputTokens: 0, cacheReadTokens: 0, outputTokens: 0, turns: 1 });
  });

  sharedConformanceCases("pi", pi, double.state);
});
