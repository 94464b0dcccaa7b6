import { describe, expect, it } from "vitest";
import { qwenAdapter } from "@/lib/agents/qwen";
import { readTranscript } from "@/lib/agents/testing";

describe("qwen adapter", () => {
  it("runs qwen headless with stream-json output and the prompt on stdin", () => {
    expect(qwenAdapter.build({ prompt: "-p fix it", worktree: "/repo" })).toEqual({
      command: "qwen",
      args: ["--output-format", "stream-json", "--approval-mode", "yolo"],
      stdin: "-p fix it",
    });
    expect(qwenAdapter.build({ prompt: "p", model: "qwen3-coder-plus", worktree: "/repo", extraArgs: ["--auth-type", "openai"] }).args.slice(-4)).toEqual([
      "--model", "qwen3-coder-plus", "--auth-type", "openai",
    ]);
  });

  it("parses a stream-json transcript; input tokens already include the cached ones", async () => {
    const events = (await readTranscript("qwen.jsonl")).flatMap((line) => qwenAdapter.parseLine(line, "stdout"));
    const usage = { type: "usage", model: "qwen3-coder-plus", inputTokens: 600, outputTokens: 50, cacheReadTokens: 400, cacheWriteTokens: 0 };
    expect(events).toEqual([
      { type: "init", model: "qwen3-coder-plus", sessionId: "adf3df29-58c9-4657-91c2-707859392606" },
      { ...usage, messageId: "6cb949cd-42fe-4924-a152-60fb019c0485" },
      { type: "tool_use", id: "call_1", name: "write_file", input: { file_path: "hello.txt", content: "hi\n" } },
      { type: "tool_result", toolUseId: "call_1", output: "File path must be absolute: hello.txt", isError: true },
      { ...usage, messageId: "541df4cd-d2c2-475d-831b-3ab6426c767a" },
      { type: "text", text: "Wrote hello.txt." },
      { type: "result", ok: true, summary: "Wrote hello.txt.", costUsd: undefined, inputTokens: 2000, cacheReadTokens: 800, outputTokens: 100, turns: 2 },
      { type: "result", ok: false, summary: "[API Error: 400 double says 400]", costUsd: undefined, inputTokens: 0, cacheReadTokens: 0, outputTokens: 0, turns: 1 },
    ]);
  });
});
