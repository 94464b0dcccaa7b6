import { describe, expect, it } from "vitest";
import { codexAdapter, parseCodexLine } from "@/lib/agents/codex";
import { readTranscript } from "@/lib/agents/testing";

describe("codex adapter", () => {
  it("runs codex exec with JSONL events and the prompt on stdin", () => {
    expect(codexAdapter.build({ prompt: "-fix it", worktree: "/repo" })).toEqual({
      command: "codex",
      args: ["exec", "--json", "--color", "never", "--sandbox", "danger-full-access"],
      stdin: "-fix it",
    });
    expect(codexAdapter.build({ prompt: "p", model: "gpt-5-codex", worktree: "/repo", extraArgs: ["--oss"] }).args.slice(-3)).toEqual([
      "--model", "gpt-5-codex", "--oss",
    ]);
  });

  it("parses an exec --json transcript: commands and patches as tool calls, usage as the result", async () => {
    const events = (await readTranscript("codex.jsonl")).flatMap((line) => codexAdapter.parseLine(line, "stdout"));
    expect(events).toEqual([
      { type: "init", sessionId: "019aa3f2-5c1e-7d20-9b4a-3c1d2e5f6a7b" },
      { type: "log", text: "Reconnecting... 2/5 (stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses))" },
      { type: "tool_use", id: "item_1", name: "command_execution", input: { command: "/bin/bash -lc ls" } },
      { type: "tool_result", toolUseId: "item_1", output: "README.md\n", isError: false },
      { type: "tool_use", id: "item_3", name: "file_change", input: { changes: [{ path: "hello.txt", kind: "add", diff: "hello from codex\n" }] } },
      { type: "tool_result", toolUseId: "item_3", output: "add hello.txt", isError: false },
      { type: "tool_use", id: "item_4", name: "command_execution", input: { command: "/bin/bash -lc 'npm test'" } },
      { type: "tool_result", toolUseId: "item_4", output: 'npm error Missing script: "test"\n', isError: true },
      { type: "log", text: "[x] Create hello.txt\n[x] Run the tests" },
      { type: "text", text: "Created `hello.txt` with a greeting. There is no test script to run yet." },
      { type: "result", ok: true, inputTokens: 24763, cacheReadTokens: 24448, outputTokens: 122 },
    ]);
  });

  it("reports a failed turn and MCP calls", () => {
    expect(parseCodexLine('{"type":"turn.failed","error":{"message":"stream disconnected"}}')).toEqual([
      { type: "result", ok: false, summary: "stream disconnected" },
    ]);
    const started = { id: "item_7", type: "mcp_tool_call", server: "docs", tool: "search", arguments: { q: "x" }, status: "in_progress" };
    expect(parseCodexLine(JSON.stringify({ type: "item.started", item: started }))).toEqual([
      { type: "tool_use", id: "item_7", name: "docs.search", input: { q: "x" } },
    ]);
    const done = { ...started, status: "completed", result: { content: [{ type: "text", text: "found" }], structured_content: null } };
    expect(parseCodexLine(JSON.stringify({ type: "item.completed", item: done }))).toEqual([
      { type: "tool_result", toolUseId: "item_7", output: "found", isError: false },
    ]);
  });

  it("keeps plain text as log lines", () => {
    expect(parseCodexLine("Reading prompt from stdin...")).toEqual([{ type: "log", text: "Reading prompt from stdin..." }]);
    expect(parseCodexLine("")).toEqual([]);
  });
});
