// Conformance of the copilot adapter with the real GitHub Copilot CLI (pinned, installed into a cache
// folder by the test), in its bring-your-own-key mode, against a local double of an OpenAI-compatible Chat Completions API.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copilotAdapter } from "@/lib/agents/copilot";
import { RunMeter } from "@/lib/spend/meter";
import { cachedCli } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { cliEnv, gitWorktree, runCli, sharedConformanceCases } from "./helpers/conformance";

const VERSION = "1.0.102";
const cli = await cachedCli("@github/copilot", VERSION);
if ("skip" in cli) console.warn(`skipped: ${cli.skip}`);
const double = await startChatDouble("127.0.0.1", {
  call: () => ({ name: "bash", arguments: { command: "printf 'hello from copilot\\n' > hello.txt", description: "Write hello.txt" } }),
  answer: "Wrote hello.txt.",
  usage: { prompt: 1000, cached: 400, completion: 50, reasoning: 20 },
});
afterAll(() => double.stop());

async function copilot(prompt: string, signal?: AbortSignal) {
  const worktree = await gitWorktree();
  // As a profile would configure it: its own model provider (BYOK) through the environment, offline
  // (no GitHub sign-in, telemetry or update check).
  const env = await cliEnv("bin" in cli ? cli.bin : "", {
    COPILOT_OFFLINE: "true", COPILOT_PROVIDER_BASE_URL: double.url, COPILOT_PROVIDER_API_KEY: "double-key-7f3c9a1e2b4d",
  });
  const run = await runCli(copilotAdapter, { prompt, model: "gpt-5", worktree }, env, signal);
  return { ...run, worktree };
}

describe.skipIf("skip" in cli)(`the real GitHub Copilot CLI ${VERSION}`, () => {
  it("writes the file through one tool call; model, session id, steps, summary, tokens and cost are read", async () => {
    const { outcome, events, worktree, logs } = await copilot("Write hello.txt");
    expect(outcome, logs.join("\n")).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from copilot\n");
    const steps = events.filter((e) => e.type !== "log" && e.type !== "usage");
    // The model comes as its tools are set up, the session id only with the result.
    expect(steps.map((e) => e.type)).toEqual(["init", "tool_use", "tool_result", "text", "init", "result"]);
    expect(steps[0]).toEqual({ type: "init", model: "gpt-5" });
    expect(steps[4]).toEqual({ type: "init", sessionId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) });
    expect(steps[1]).toMatchObject({ type: "tool_use", name: "bash", input: { command: expect.stringContaining("hello.txt") } });
    expect(steps[2]).toMatchObject({ type: "tool_result", isError: false });
    expect(outcome.result).toEqual({ type: "result", ok: true, summary: "Wrote hello.txt." });
    // Copilot reports no tokens in BYOK mode (its result counts premium requests only): the run
    // records its tool calls, and a token or cost ceiling cannot be enforced for it.
    const meter = new RunMeter({ maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null }, "gpt-5");
    for (const e of events) meter.observe(e);
    expect(meter.totals).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0, toolCalls: 1, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(meter.measured).toBe(false);
  });

  it("fails the run on a model API error, with the CLI's message", async () => {
    double.state.failWith = 400;
    const { outcome, events } = await copilot("Write hello.txt");
    double.state.failWith = 0;
    expect(outcome.exitCode).toBe(1);
    // The message comes as a plain line before the result, which carries only the exit code.
    expect(events.filter((e) => e.type !== "log" || !e.text.startsWith("Package extraction"))).toEqual([
      { type: "init", model: "gpt-5" },
      { type: "log", text: "query: 400 double says 400" },
      { type: "init", sessionId: expect.any(String) },
      { type: "result", ok: false },
    ]);
  });

  sharedConformanceCases("copilot", copilot, double.state);
});
