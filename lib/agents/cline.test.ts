import { describe, expect, it } from "vitest";
import { CLINE_LEAD, clineAdapter } from "@/lib/agents/cline";
import { readTranscript } from "@/lib/agents/testing";

describe("cline adapter", () => {
  it("runs cline with NDJSON output, auto-approval by default, one short line as argument and the prompt on stdin", () => {
    expect(clineAdapter.build({ prompt: "--yolo fix it", worktree: "/repo" })).toEqual({
      command: `cat | CLINE_SESSION_BACKEND_MODE=local cline '--json' '--auto-approve' 'true' '${CLINE_LEAD}'`,
      args: [],
      shell: true,
      program: "cline",
      stdin: "--yolo fix it",
    });
    expect(clineAdapter.build({ prompt: "p", model: "gpt-5", worktree: "/repo", permissionMode: "plan", extraArgs: ["--thinking", "it's"] }).command).toBe(
      "cat | CLINE_SESSION_BACKEND_MODE=local cline '--json' '--plan' '--model' 'gpt-5' '--thinking' 'it'\\''s' 'Carry out the task below.'",
    );
  });

  it("parses a recorded run (cline 3.0.65): session, tool call and result, text, usage per model call, the totals", async () => {
    const events = (await readTranscript("cline.jsonl")).flatMap((line) => clineAdapter.parseLine(line, "stdout"));
    expect(events).toEqual([
      { type: "init", sessionId: "conv_1795461055484_na8ej70" },
      { type: "usage", messageId: "cline-2026-11-23T19:10:56.281Z-1000", inputTokens: 600, outputTokens: 50, cacheReadTokens: 400, cacheWriteTokens: 0 },
      { type: "tool_use", id: "call_1", name: "run_commands", input: { commands: ["printf hi > hello.txt"] } },
      { type: "tool_result", toolUseId: "call_1", output: '[{"query":"printf hi > hello.txt","result":"","success":true}]', isError: false },
      { type: "usage", messageId: "cline-2026-11-23T19:10:56.593Z-2000", inputTokens: 600, outputTokens: 50, cacheReadTokens: 400, cacheWriteTokens: 0 },
      { type: "text", text: "Wrote hello.txt." },
      { type: "init", model: "gpt-5" },
      { type: "result", ok: true, summary: "Wrote hello.txt.", inputTokens: 2000, cacheReadTokens: 800, outputTokens: 100, turns: 2, costUsd: undefined },
    ]);
  });

  it("reads a failed command, a model API error and a failed run, with the CLI's message", () => {
    const lines = [
      '{"type":"agent_event","event":{"type":"content_end","contentType":"tool","toolName":"run_commands","toolCallId":"call_2","output":[{"query":"false","result":"","success":false}]}}',
      '{"type":"agent_event","event":{"type":"error","error":{"name":"Error","message":"Cannot connect to API (FailedToOpenSocket)"}}}',
      '{"type":"run_result","finishReason":"error","iterations":1,"aggregateUsage":{"inputTokens":0,"outputTokens":0,"cacheReadTokens":0,"cacheWriteTokens":0,"totalCost":0.25},"text":"Cannot connect to API (FailedToOpenSocket)"}',
      "plain words",
    ];
    expect(lines.flatMap((line) => clineAdapter.parseLine(line, "stdout"))).toEqual([
      { type: "tool_result", toolUseId: "call_2", output: '[{"query":"false","result":"","success":false}]', isError: true },
      { type: "log", text: "error: Cannot connect to API (FailedToOpenSocket)" },
      { type: "result", ok: false, summary: "Cannot connect to API (FailedToOpenSocket)", inputTokens: 0, cacheReadTokens: 0, outputTokens: 0, turns: 1, costUsd: 0.25 },
      { type: "log", text: "plain words" },
    ]);
  });
});
