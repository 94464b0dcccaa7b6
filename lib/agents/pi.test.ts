import { describe, expect, it } from "vitest";
import { parsePiLine, piAdapter } from "@/lib/agents/pi";
import { readTranscript } from "@/lib/agents/testing";

describe("pi adapter", () => {
  it("runs pi headless with JSON events, no session file, and the prompt on stdin", () => {
    expect(piAdapter.build({ prompt: "-p fix it", worktree: "/repo" })).toEqual({
      command: "pi",
      args: ["-p", "--mode", "json", "--no-session", "--offline"],
      stdin: "-p fix it",
    });
    expect(piAdapter.build({ prompt: "p", model: "openai/gpt-5", worktree: "/repo", permissionMode: "read-only" }).args.slice(-4)).toEqual([
      "--tools", "read,grep,find,ls", "--model", "openai/gpt-5",
    ]);
  });

  it("parses a JSON transcript: tool executions as steps, each message's usage, agent_end as the result", async () => {
    const events = (await readTranscript("pi.jsonl")).flatMap((line) => piAdapter.parseLine(line, "stdout"));
    const usage = { type: "usage", model: "m1", inputTokens: 600, outputTokens: 50, cacheReadTokens: 400, cacheWriteTokens: 0 };
    const command = { command: 'printf "hi\\n" > hello.txt' };
    expect(events).toEqual([
      { type: "init", sessionId: "01a208d3-9ef5-73fd-8094-7dc9d3a282eb" },
      { ...usage, messageId: expect.any(String) },
      { type: "tool_use", id: "call_1", name: "bash", input: command },
      { type: "tool_result", toolUseId: "call_1", output: "(no output)", isError: false },
      { ...usage, messageId: "chatcmpl-2" },
      { type: "text", text: "Wrote hello.txt." },
      { type: "log", text: "API retry 1/3: 429 rate limited" },
      { type: "result", ok: true, inputTokens: 2000, cacheReadTokens: 800, outputTokens: 100, turns: 2 },
    ]);
  });

  it("an agent_end whose last message failed is a failed result with the error, even though pi exits 0", () => {
    const failed = { role: "assistant", content: [], model: "m1", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } }, stopReason: "error", errorMessage: "400 bad request" };
    expect(parsePiLine(JSON.stringify({ type: "agent_end", messages: [{ role: "user", content: [] }, failed] }))).toEqual([
      { type: "result", ok: false, summary: "400 bad request", inputTokens: 0, cacheReadTokens: 0, outputTokens: 0, turns: 1 },
    ]);
  });
});
