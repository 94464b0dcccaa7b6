// Conformance of the gemini adapter with the real Gemini CLI (pinned, installed into a cache
// folder by the test) against a local double of the Gemini API's streamGenerateContent.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { geminiAdapter } from "@/lib/agents/gemini";
import { RunMeter } from "@/lib/spend/meter";
import { cachedCli } from "./helpers/agent-cli-cache";
import { cliEnv, gitWorktree, runCli, sharedConformanceCases } from "./helpers/conformance";
import { startGeminiDouble } from "./helpers/gemini-double";

const VERSION = "0.61.0";
const cli = await cachedCli("@google/gemini-cli", VERSION);
if ("skip" in cli) console.warn(`skipped: ${cli.skip}`);
const double = await startGeminiDouble("127.0.0.1", {
  write: () => ({ file_path: "hello.txt", content: "hello from gemini\n" }),
  answer: "Wrote hello.txt.",
  usage: { prompt: 1000, cached: 400, candidates: 50, thoughts: 20 },
});
afterAll(() => double.stop());

async function gemini(prompt: string, signal?: AbortSignal) {
  const worktree = await gitWorktree();
  const env = await cliEnv("bin" in cli ? cli.bin : "", { GEMINI_API_KEY: "test-key", GOOGLE_GEMINI_BASE_URL: double.url });
  // With a base URL gemini assumes a gateway, which headless runs refuse: the API key is the auth.
  await mkdir(join(env.HOME, ".gemini"));
  await writeFile(join(env.HOME, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
  const run = await runCli(geminiAdapter, { prompt, model: "gemini-2.5-pro", worktree }, env, signal);
  return { ...run, worktree };
}

describe.skipIf("skip" in cli)(`the real Gemini CLI ${VERSION}`, () => {
  it("writes the file through one tool call; steps, summary, tokens and cost are read", async () => {
    const { outcome, events, worktree } = await gemini("Write hello.txt");
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from gemini\n");
    const steps = events.filter((e) => e.type !== "log");
    expect(steps.map((e) => e.type)).toEqual(["init", "tool_use", "tool_result", "text", "result"]);
    expect(steps[0]).toMatchObject({ type: "init", model: "gemini-2.5-pro", sessionId: expect.any(String) });
    expect(steps[1]).toMatchObject({ type: "tool_use", name: "write_file", input: { file_path: "hello.txt", content: "hello from gemini\n" } });
    expect(steps[2]).toMatchObject({ type: "tool_result", isError: false });
    // Two model turns of 1000 input (400 cached), 50 answer and 20 thinking tokens each.
    expect(outcome.result).toEqual({ type: "result", ok: true, summary: "Wrote hello.txt.", inputTokens: 2000, cacheReadTokens: 800, outputTokens: 140 });
    const meter = new RunMeter({ maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null }, "gemini-2.5-pro");
    for (const e of events) meter.observe(e);
    // 1200 × $1.25 + 800 × $0.125 + 140 × $10 per million
    expect(meter.totals).toEqual({ inputTokens: 2000, outputTokens: 140, costUsd: expect.closeTo(0.003, 12), toolCalls: 1, cacheReadTokens: 800, cacheWriteTokens: 0 });
  });

  // Gemini CLI itself retries a 429 or 5xx with backoff for over a minute, so the error here is
  // one it gives up on at once.
  it("fails the run on a model API error, with the CLI's message", async () => {
    double.state.failWith = 400;
    const { outcome } = await gemini("Write hello.txt");
    double.state.failWith = 0;
    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.result).toEqual({
      type: "result", ok: false, inputTokens: 0, cacheReadTokens: 0, outputTokens: 0,
      summary: '[API Error: {"error":{"code":400,"message":"double says 400","status":"INVALID_ARGUMENT"}}]',
    });
  });

  sharedConformanceCases("gemini", gemini, double.state);
});
