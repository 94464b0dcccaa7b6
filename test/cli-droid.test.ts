// Conformance of the droid adapter with the real Factory Droid CLI (pinned, installed into a
// cache folder by the test) against a local double of an OpenAI-compatible Chat Completions API.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { droidAdapter } from "@/lib/agents/droid";
import { RunMeter } from "@/lib/spend/meter";
import { cachedCli } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { cliEnv, gitWorktree, runCli, sharedConformanceCases } from "./helpers/conformance";

// `droid` is the package Factory publishes its CLI under with the Linux binary beside it;
// `@factory/cli` 0.225.1 names a platform package the registry does not have.
const VERSION = "0.215.0";
const cli = await cachedCli("droid", VERSION);
if ("skip" in cli) console.warn(`skipped: ${cli.skip}`);
const double = await startChatDouble("127.0.0.1", {
  call: () => ({ name: "Execute", arguments: { command: "printf 'hello from droid\\n' > hello.txt", riskLevel: "low", riskLevelReason: "writes one file" } }),
  answer: "Wrote hello.txt.",
  usage: { prompt: 1000, cached: 400, completion: 50, reasoning: 20 },
});
afterAll(() => double.stop());

async function droid(prompt: string, signal?: AbortSignal) {
  const worktree = await gitWorktree();
  const env = await cliEnv("bin" in cli ? cli.bin : "", {});
  // As a profile would configure it: a model of one's own in the run's HOME, no Factory account.
  await mkdir(join(env.HOME, ".factory"), { recursive: true });
  await writeFile(join(env.HOME, ".factory", "settings.json"), JSON.stringify({
    customModels: [{ model: "gpt-5", displayName: "Double", baseUrl: double.url, apiKey: "sk-test", provider: "generic-chat-completion-api", maxOutputTokens: 4096 }],
  }));
  const result = await runCli(droidAdapter, { prompt, model: "custom:gpt-5", worktree }, env, signal);
  return { ...result, worktree };
}

describe.skipIf("skip" in cli)(`the real Factory Droid CLI ${VERSION}`, () => {
  it("writes the file through one tool call; steps, summary, tokens and cost are read", async () => {
    const { outcome, events, worktree, logs } = await droid("Write hello.txt");
    expect(outcome, logs.join("\n")).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from droid\n");
    const steps = events.filter((e) => e.type !== "log");
    expect(steps.map((e) => e.type)).toEqual(["init", "tool_use", "tool_result", "text", "result"]);
    expect(steps[0]).toEqual({ type: "init", model: "custom:Double-0", sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(steps[1]).toEqual({ type: "tool_use", id: "call_1", name: "Execute", input: { command: "printf 'hello from droid\\n' > hello.txt", riskLevel: "low", riskLevelReason: "writes one file" } });
    expect(steps[2]).toEqual({ type: "tool_result", toolUseId: "call_1", output: "Command completed successfully\n\n[Process exited with code 0]", isError: false });
    expect(steps[3]).toEqual({ type: "text", text: "Wrote hello.txt." });
    // Two model turns of 1000 input (400 cached) and 50 output (20 of them reasoning) each.
    expect(outcome.result).toEqual({ type: "result", ok: true, summary: "Wrote hello.txt.", inputTokens: 2000, cacheReadTokens: 800, outputTokens: 100, turns: 2 });
    const meter = new RunMeter({ maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null }, "gpt-5");
    for (const e of events) meter.observe(e);
    // 1200 × $1.25 + 800 × $0.125 + 100 × $10 per million
    expect(meter.totals).toEqual({ inputTokens: 2000, outputTokens: 100, costUsd: expect.closeTo(0.0026, 12), toolCalls: 1, cacheReadTokens: 800, cacheWriteTokens: 0 });
  });

  // droid retries a 5xx for over a minute and then exits 0 with no result line (seen with a 500):
  // a 400, which it does not retry, shows how it reports a model API error.
  it("fails the run on a model API error, with the CLI's message", async () => {
    double.state.failWith = 400;
    const { outcome, events } = await droid("Write hello.txt");
    double.state.failWith = 0;
    expect(outcome.exitCode).toBe(1);
    expect(outcome.result).toEqual({ type: "result", ok: false, summary: "400 double says 400" });
    expect(events.filter((e) => e.type === "log")).toEqual([{ type: "log", text: "error: Exec failed" }]);
  });

  sharedConformanceCases("droid", droid, double.state);
});
