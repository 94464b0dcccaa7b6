import { describe, expect, it } from "vitest";
import { opencodeAdapter } from "@/lib/agents/opencode";
import { readTranscript } from "@/lib/agents/testing";

describe("opencode adapter", () => {
  it("runs opencode run with JSON events, --auto by default, and the prompt on stdin", () => {
    expect(opencodeAdapter.build({ prompt: "-p fix it", worktree: "/repo" })).toEqual({
      command: "opencode",
      args: ["run", "--format", "json", "--auto"],
      stdin: "-p fix it",
    });
    expect(opencodeAdapter.build({ prompt: "p", model: "openai/gpt-5", worktree: "/repo", permissionMode: "config" }).args).toEqual([
      "run", "--format", "json", "--model", "openai/gpt-5",
    ]);
  });

  it("parses a JSON transcript: each step's session id, each tool part as call and outcome, each step's tokens, the error event", async () => {
    const events = (await readTranscript("opencode.jsonl")).flatMap((line) => opencodeAdapter.parseLine(line, "stdout"));
    const usage = { type: "usage", inputTokens: 600, outputTokens: 50, cacheReadTokens: 400, cacheWriteTokens: 0 };
    const session = { type: "init", sessionId: "ses_df72cfd13ffeXu33B3As49Cd4J" };
    expect(events).toEqual([
      session,
      { type: "tool_use", id: "call_4", name: "bash", input: { file_path: "hello.txt", content: "hi\n" } },
      {
        type: "tool_result", toolUseId: "call_4", isError: true,
        output: 'The bash tool was called with invalid arguments: SchemaError(Missing key\n  at ["command"]).\nPlease rewrite the input so it satisfies the expected schema.',
      },
      { ...usage, messageId: "msg_208d3126e0018xaHTq6Xji5aM9" },
      session,
      { type: "text", text: "Wrote hello.txt." },
      { ...usage, messageId: "msg_208d32755001EZ1JXR7t145jhm" },
      { type: "result", ok: true },
      { type: "result", ok: false, summary: "double says 400" },
    ]);
  });
});
