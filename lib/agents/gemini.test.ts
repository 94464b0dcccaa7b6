import { describe, expect, it } from "vitest";
import { geminiAdapter, parseGeminiLine } from "@/lib/agents/gemini";
import { readTranscript } from "@/lib/agents/testing";

describe("gemini adapter", () => {
  it("runs gemini headless with stream-json output, the prompt on stdin so a leading dash stays text", () => {
    expect(geminiAdapter.build({ prompt: "--fix it", worktree: "/repo" })).toEqual({
      command: "gemini",
      args: ["--output-format", "stream-json", "--approval-mode", "yolo", "--skip-trust"],
      stdin: "--fix it",
    });
    expect(geminiAdapter.build({ prompt: "p", model: "gemini-2.5-pro", worktree: "/repo", extraArgs: ["--sandbox"] }).args.slice(-3)).toEqual([
      "--model", "gemini-2.5-pro", "--sandbox",
    ]);
  });

  it("parses a stream-json transcript: deltas, tool calls, warnings, and the result's tokens", async () => {
    const events = (await readTranscript("gemini.jsonl")).flatMap((line) => geminiAdapter.parseLine(line, "stdout"));
    expect(events).toEqual([
      { type: "init", model: "gemini-2.5-pro", sessionId: "3f633492-66b2-4d71-bff5-f146352f48d8" },
      { type: "text", text: "I'll create `hello.txt`", delta: true },
      { type: "text", text: " with a greeting.", delta: true },
      { type: "tool_use", id: "write_file-1763769214120-8f3a2c1d5e6b7", name: "write_file", input: { file_path: "hello.txt", content: "hello from gemini\n" } },
      { type: "tool_result", toolUseId: "write_file-1763769214120-8f3a2c1d5e6b7", output: "Successfully created and wrote to new file: hello.txt.", isError: false },
      { type: "tool_use", id: "read_file-1763769215004-1a2b3c4d5e6f7", name: "read_file", input: { absolute_path: "/srv/ringmaster/worktrees/p1/hello/CONTRIBUTING.md" } },
      { type: "tool_result", toolUseId: "read_file-1763769215004-1a2b3c4d5e6f7", output: "File not found: /srv/ringmaster/worktrees/p1/hello/CONTRIBUTING.md", isError: true },
      { type: "log", text: "warning: Agent execution blocked: a hook asked to stop the shell tool" },
      { type: "text", text: "Done: `hello.txt` now says hello.", delta: true },
      // Output is total − input: 311 answer tokens and 157 of thinking.
      { type: "result", ok: true, inputTokens: 8642, cacheReadTokens: 4096, outputTokens: 9110 - 8642 },
    ]);
  });

  it("reports an error result with its message", () => {
    const line = '{"type":"result","status":"error","error":{"type":"FatalAuthenticationError","message":"Invalid API key"},"stats":{"input_tokens":0,"output_tokens":0}}';
    expect(parseGeminiLine(line)).toEqual([{ type: "result", ok: false, summary: "Invalid API key", inputTokens: 0, outputTokens: 0 }]);
  });

  it("keeps plain text (stderr warnings) as log lines", () => {
    expect(geminiAdapter.parseLine("YOLO mode is enabled.", "stderr")).toEqual([{ type: "log", text: "YOLO mode is enabled." }]);
  });
});
