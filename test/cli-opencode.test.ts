// Conformance of the opencode adapter with the real opencode (pinned, installed into a cache
// folder by the test) against a local double of an OpenAI-compatible Chat Completions API.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { opencodeAdapter } from "@/lib/agents/opencode";
import { RunMeter } from "@/lib/spend/meter";
import { cachedCli } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { gitWorktree, opencodeFamilyEnv, runCli, sharedConformanceCases } from "./helpers/conformance";

const VERSION = "1.18.33";
const cli = await cachedCli("opencode-ai", VERSION);
if ("skip" in cli) console.warn(`skipped: ${cli.skip}`);
const double = await startChatDouble("127.0.0.1", {
  call: () => ({ name: "bash", arguments: { command: "printf 'hello from opencode\\n' > hello.txt", description: "Write hello.txt" } }),
  answer: "Wrote hello.txt.",
  usage: { prompt: 1000, cached: 400, completion: 50, reasoning: 20 },
});
afterAll(() => double.stop());

async function opencode(prompt: string, signal?: AbortSignal) {
  const worktree = await gitWorktree();
  const env = await opencodeFamilyEnv("OPENCODE", "bin" in cli ? cli.bin : "", double.url);
  const run = await runCli(opencodeAdapter, { prompt, model: "double/gpt-5", worktree }, env, signal);
  return { ...run, worktree };
}

describe.skipIf("skip" in cli)(`the real opencode ${VERSION}`, () => {
  it("writes the file through one tool call; session id, steps, summary, tokens and cost are read", async () => {
    const { outcome, events, worktree, logs } = await opencode("Write hello.txt");
    expect(outcome, logs.join("\n")).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from opencode\n");
    const steps = events.filter((e) => e.type !== "log" && e.type !== "usage");
    // Each model call's step names the session (one id for the run).
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

  // opencode decides what to retry from the error's status and its body's words: a 5xx, a 429 or a
  // body saying "server_error", "rate limit", "overloaded" … is retried up to 5 times (2 s, 4 s, 8 s …
  // unless the API sends retry-after-ms), anything else fails at once. An OpenAI-style 400 says
  // "invalid_request_error".
  it("fails the run on a model API error 400 at once, with the CLI's message", async () => {
    Object.assign(double.state, { failWith: 400, errorType: "invalid_request_error" });
    const before = double.state.requests.length;
    const { outcome } = await opencode("Write hello.txt");
    Object.assign(double.state, { failWith: 0, errorType: "server_error" });
    expect(outcome.exitCode).toBe(1);
    expect(outcome.result).toEqual({ type: "result", ok: false, summary: "double says 400" });
    // The run's one model call and the session title's, neither retried.
    expect(double.state.requests.length - before).toBe(2);
  });

  // With the API's retry-after-ms of 1 its retries take no time: the run fails with the message
  // once they are used up instead of some 60 s later.
  it.each([429, 500])("fails the run on a model API error %i once its retries are used up, with the CLI's message", async (status) => {
    Object.assign(double.state, { failWith: status, retryAfterMs: 1 });
    const before = double.state.requests.length;
    const { outcome } = await opencode("Write hello.txt");
    Object.assign(double.state, { failWith: 0, retryAfterMs: null });
    expect(outcome.exitCode).toBe(1);
    expect(outcome.result).toEqual({ type: "result", ok: false, summary: `double says ${status}` });
    // The session title's call and 2 retries (its SDK's), the run's call and 5 retries (opencode's).
    expect(double.state.requests.length - before).toBe(9);
  });

  sharedConformanceCases("opencode", opencode, double.state);
});
