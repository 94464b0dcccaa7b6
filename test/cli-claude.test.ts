// Conformance of the claude adapter with the real Claude Code (the pinned devDependency)
// against a local double of Anthropic's Messages API, outside the sandbox (test/sandbox-claude
// runs it through the whole run lifecycle inside it).
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claudeAdapter } from "@/lib/agents/claude";
import { RunMeter } from "@/lib/spend/meter";
import { cliEnv, gitWorktree, runCli, sharedConformanceCases } from "./helpers/conformance";
import { startMessagesDouble } from "./helpers/messages-double";

// Claude Code ships a native binary per platform; its install script (which links `claude`) may not run.
const nativeClaude = (() => {
  try {
    return join(dirname(createRequire(import.meta.url).resolve(`@anthropic-ai/claude-code-${process.platform}-${process.arch}/package.json`)), "claude");
  } catch {
    return null;
  }
})();
let worktree = "";
const double = await startMessagesDouble("127.0.0.1", () => ({ name: "Write", input: { file_path: join(worktree, "hello.txt"), content: "hello from claude\n" } }));
afterAll(() => double.stop());

async function claude(prompt: string, signal?: AbortSignal) {
  worktree = await gitWorktree();
  const env = await cliEnv(dirname(nativeClaude!), {
    ANTHROPIC_BASE_URL: double.url, ANTHROPIC_API_KEY: "sk-ant-test", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", CLAUDE_CODE_MAX_RETRIES: "0",
  });
  // Outside the sandbox this test runs as root, where claude refuses bypassPermissions.
  return runCli(claudeAdapter, { prompt, model: "claude-sonnet-4-5", worktree, permissionMode: "acceptEdits" }, env, signal);
}

describe.skipIf(!nativeClaude)("the real Claude Code", () => {
  it("writes the file through one tool call; steps, summary, tokens and cost are read", async () => {
    const { outcome, events } = await claude("Write hello.txt");
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(await readFile(join(worktree, "hello.txt"), "utf8")).toBe("hello from claude\n");
    const steps = events.filter((e) => e.type !== "log" && e.type !== "usage");
    expect(steps.map((e) => e.type)).toEqual(["init", "tool_use", "tool_result", "text", "result"]);
    expect(steps[0]).toMatchObject({ type: "init", model: "claude-sonnet-4-5", sessionId: expect.any(String) });
    expect(steps[1]).toMatchObject({ type: "tool_use", name: "Write" });
    expect(steps[2]).toMatchObject({ type: "tool_result", isError: false });
    // Two model turns of 10 input and 5 output tokens at Sonnet 4.5's $3 / $15 per million.
    expect(outcome.result).toEqual({ type: "result", ok: true, summary: "Done.", costUsd: 0.00021, inputTokens: 20, cacheReadTokens: 0, outputTokens: 10, turns: 2 });
    const meter = new RunMeter({ maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null }, "claude-sonnet-4-5");
    for (const e of events) meter.observe(e);
    expect(meter.totals).toEqual({ inputTokens: 20, outputTokens: 10, costUsd: expect.closeTo(0.00021, 12), toolCalls: 1, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  const gateway = "This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway";
  it.each([
    [429, "API Error: Request rejected (429) · double says 429"],
    [500, `API Error: 500 double says 500. ${gateway} (${new URL(double.url).host}).`],
    [529, `API Error: 529 double says 529. ${gateway} (${new URL(double.url).host}).`],
  ])("fails the run on a model API error %i, with the CLI's message", async (status, message) => {
    double.control.failWith = status;
    const { outcome } = await claude("Write hello.txt");
    double.control.failWith = 0;
    expect(outcome.exitCode).toBe(1);
    expect(outcome.result).toEqual({ type: "result", ok: false, summary: message, costUsd: 0, inputTokens: 0, cacheReadTokens: 0, outputTokens: 0, turns: 1 });
  });

  // Its double keeps the hang switch beside the requests: the shared cases see them as one state.
  sharedConformanceCases("claude", claude, {
    requests: double.requests, prompts: double.prompts,
    get hang() { return double.control.hang; },
    set hang(hang: boolean) { double.control.hang = hang; },
  });
});
