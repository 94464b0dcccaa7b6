import { describe, expect, it } from "vitest";
import { claudeAdapter } from "@/lib/agents/claude";
import { parseClaudeStreamLine } from "@/lib/agents/claude-stream";
import { readTranscript } from "@/lib/agents/testing";
import { RunMeter } from "@/lib/spend/meter";

const ctx = { prompt: "-p fix it", worktree: "/repo" };

describe("claude adapter", () => {
  it("runs claude headless with stream-json output, the prompt on stdin so a leading dash stays text", () => {
    expect(claudeAdapter.build(ctx)).toEqual({
      command: "claude",
      args: ["-p", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"],
      stdin: "-p fix it",
    });
  });

  it("adds the model and extra args last", () => {
    const { args } = claudeAdapter.build({ ...ctx, model: "opus", extraArgs: ["--max-turns", "5"] });
    expect(args.slice(-4)).toEqual(["--model", "opus", "--max-turns", "5"]);
  });

  it("parses a stream-json transcript into steps, with the result's cost and all input tokens", async () => {
    const events = (await readTranscript("claude.jsonl")).flatMap((line) => claudeAdapter.parseLine(line, "stdout"));
    expect(events.filter((e) => e.type !== "usage")).toEqual([
      { type: "init", model: "claude-sonnet-4-5-20250929", sessionId: "7f3c9a1e-2b4d-4e6f-8a0b-1c2d3e4f5a6b" },
      { type: "log", text: "API retry 1/10: overloaded (HTTP 529)" },
      { type: "text", text: "I'll create hello.txt with a greeting." },
      { type: "tool_use", id: "toolu_01Wq8n2TzK4", name: "Write", input: { file_path: "hello.txt", content: "hello from claude\n" } },
      { type: "tool_result", toolUseId: "toolu_01Wq8n2TzK4", output: "File created successfully at: hello.txt", isError: false },
      { type: "tool_use", id: "toolu_01Ab5cRr9Q1", name: "Bash", input: { command: "cat hello.txt", description: "Show the new file" } },
      { type: "tool_result", toolUseId: "toolu_01Ab5cRr9Q1", output: "hello from claude", isError: false },
      { type: "tool_use", id: "toolu_01Zx7yWv3E2", name: "Bash", input: { command: "npm test", description: "Run the tests" } },
      { type: "tool_result", toolUseId: "toolu_01Zx7yWv3E2", output: 'Exit code 1\nnpm error Missing script: "test"', isError: true },
      { type: "log", text: "Context compacted (155000 tokens before)" },
      { type: "text", text: "Created hello.txt containing a greeting; the project has no test script yet." },
      {
        type: "result",
        ok: true,
        summary: "Created hello.txt containing a greeting; the project has no test script yet.",
        costUsd: 0.0421275,
        inputTokens: 12 + 3221 + 67383,
        cacheReadTokens: 67383,
        outputTokens: 412,
        turns: 4,
      },
    ]);
  });

  it("reads each assistant message's usage, which adds up to the result's totals", async () => {
    const events = (await readTranscript("claude.jsonl")).flatMap((line) => claudeAdapter.parseLine(line, "stdout"));
    const usage = events.filter((e) => e.type === "usage");
    expect(usage).toHaveLength(6);
    expect(usage[3]).toEqual({ type: "usage", messageId: "msg_01J2b7Lm", model: "claude-sonnet-4-5-20250929", inputTokens: 3, outputTokens: 70, cacheReadTokens: 17521, cacheWriteTokens: 120 });
    const meter = new RunMeter({ maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null });
    for (const e of usage) meter.observe(e);
    // Sonnet 4.5 list prices: 12 × $3 + 3221 × $3.75 + 67383 × $0.30 + 412 × $15 per million.
    expect(meter.totals).toEqual({ inputTokens: 12 + 3221 + 67383, cacheReadTokens: 67383, cacheWriteTokens: 3221, outputTokens: 412, costUsd: expect.closeTo(0.03850965, 10), toolCalls: 0 });
    expect(meter.turns).toBe(new Set(usage.map((e) => e.type === "usage" && e.messageId)).size);
  });

  it("turns an error result into a failed result that says why", () => {
    const line = JSON.stringify({
      type: "result", subtype: "error_max_turns", is_error: true, num_turns: 5, total_cost_usd: 0.5,
      usage: { input_tokens: 10, output_tokens: 20 }, errors: ["Reached maximum number of turns (5)"],
    });
    expect(parseClaudeStreamLine(line)).toEqual([
      { type: "result", ok: false, summary: "Reached maximum number of turns (5)", costUsd: 0.5, inputTokens: 10, outputTokens: 20, turns: 5 },
    ]);
  });

  it("fails a success-shaped result flagged is_error (an API error reported as the answer)", () => {
    const line = JSON.stringify({ type: "result", subtype: "success", is_error: true, result: "API Error: 401", total_cost_usd: 0, usage: {} });
    expect(parseClaudeStreamLine(line)).toMatchObject([{ type: "result", ok: false, summary: "API Error: 401" }]);
  });

  it("names the tools its permission mode denied (claude exits 0 and calls that a success)", () => {
    // SDKResultMessage with permission_denials, as Claude Code prints when acceptEdits refuses Bash.
    const line = JSON.stringify({
      type: "result", subtype: "success", is_error: false, duration_ms: 2093, num_turns: 2, result: "Done.", session_id: "5b0d4c52-0d0e-4a57-9d7e-1f0b7c1e7a51",
      total_cost_usd: 0.00021, usage: { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 10 },
      permission_denials: [
        { tool_name: "Bash", tool_use_id: "toolu_1", tool_input: { command: "touch x" } },
        { tool_name: "Bash", tool_use_id: "toolu_2", tool_input: { command: "npm test" } },
      ],
    });
    expect(parseClaudeStreamLine(line)).toEqual([
      { type: "result", ok: true, summary: "Done.", costUsd: 0.00021, inputTokens: 20, cacheReadTokens: 0, outputTokens: 10, turns: 2, deniedTools: ["Bash", "Bash"] },
    ]);
  });

  it("keeps anything unstructured as a log line and drops machine-state messages", () => {
    expect(parseClaudeStreamLine("Error: Invalid API key · Please run /login")).toEqual([
      { type: "log", text: "Error: Invalid API key · Please run /login" },
    ]);
    expect(parseClaudeStreamLine('{"broken": ')).toEqual([{ type: "log", text: '{"broken": ' }]);
    expect(parseClaudeStreamLine('{"type":"mystery"}')).toEqual([{ type: "log", text: '{"type":"mystery"}' }]);
    expect(parseClaudeStreamLine("   ")).toEqual([]);
    expect(parseClaudeStreamLine('{"type":"stream_event","event":{"type":"content_block_delta"}}')).toEqual([]);
    expect(parseClaudeStreamLine('{"type":"system","subtype":"hook_started","hook_name":"x"}')).toEqual([]);
    expect(parseClaudeStreamLine('{"type":"system","subtype":"notification","text":"Low credits","key":"k","priority":"low"}')).toEqual([
      { type: "log", text: "Low credits" },
    ]);
    expect(parseClaudeStreamLine('{"type":"user","message":{"role":"user","content":"the prompt, echoed"}}')).toEqual([]);
  });
});
