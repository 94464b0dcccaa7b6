import { describe, expect, it } from "vitest";
import { droidAdapter } from "@/lib/agents/droid";
import { readTranscript } from "@/lib/agents/testing";

describe("droid adapter", () => {
  it("runs `droid exec` with stream-json, no permission checks by default and the prompt on stdin", () => {
    expect(droidAdapter.build({ prompt: "--auto low", worktree: "/repo" })).toEqual({
      command: "droid",
      args: ["exec", "--output-format", "stream-json", "--skip-permissions-unsafe"],
      stdin: "--auto low",
    });
    expect(droidAdapter.build({ prompt: "p", model: "custom:gpt-5", worktree: "/repo", permissionMode: "medium" }).args.slice(3)).toEqual(["--auto", "medium", "--model", "custom:gpt-5"]);
    expect(droidAdapter.build({ prompt: "p", worktree: "/repo", permissionMode: "read-only" }).args).toEqual(["exec", "--output-format", "stream-json"]);
  });

  it("parses a recorded run (droid 0.215.0): init, tool call and result, text, the completion's usage", async () => {
    const events = (await readTranscript("droid.jsonl")).flatMap((line) => droidAdapter.parseLine(line, "stdout"));
    expect(events).toEqual([
      { type: "init", model: "custom:Double-0", sessionId: "cc61a9e4-99a9-43ab-adff-a9d9a7158f7a" },
      { type: "tool_use", id: "call_1", name: "Execute", input: { command: "printf hi > hello.txt", riskLevel: "low", riskLevelReason: "writes one file" } },
      { type: "tool_result", toolUseId: "call_1", output: "Command completed successfully\n\n[Process exited with code 0]", isError: false },
      { type: "text", text: "Wrote hello.txt." },
      { type: "result", ok: true, summary: "Wrote hello.txt.", inputTokens: 2000, cacheReadTokens: 800, outputTokens: 100, turns: 2 },
    ]);
  });

  it("reads a model API error as a failed result with its message (droid 0.215.0, a 400)", () => {
    const lines = [
      '{"type":"error","source":"agent_loop","message":"400 double says 400","timestamp":1795462647022,"session_id":"a3d92a76"}',
      '{"type":"error","source":"cli","message":"Exec failed","timestamp":1795462647092,"session_id":"a3d92a76"}',
    ];
    expect(lines.flatMap((line) => droidAdapter.parseLine(line, "stdout"))).toEqual([
      { type: "result", ok: false, summary: "400 double says 400" },
      { type: "log", text: "error: Exec failed" },
    ]);
  });

  it("reads a refused tool call as an error result", () => {
    const line = '{"type":"tool_result","id":"call_1","toolId":"bash","isError":true,"error":{"type":"tool_error","message":"Error: Not found: bash."}}';
    expect(droidAdapter.parseLine(line, "stdout")).toEqual([{ type: "tool_result", toolUseId: "call_1", output: "Error: Not found: bash.", isError: true }]);
  });
});
