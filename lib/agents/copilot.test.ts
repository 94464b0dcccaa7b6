import { describe, expect, it } from "vitest";
import { copilotAdapter } from "@/lib/agents/copilot";
import { readTranscript } from "@/lib/agents/testing";

describe("copilot adapter", () => {
  it("runs copilot headless with JSON events, every permission by default, and the prompt on stdin", () => {
    expect(copilotAdapter.build({ prompt: "-p fix it", worktree: "/repo" })).toEqual({
      command: "copilot",
      args: ["--output-format", "json", "--no-color", "--no-ask-user", "--allow-all"],
      stdin: "-p fix it",
    });
    expect(copilotAdapter.build({ prompt: "p", model: "gpt-5", worktree: "/repo", permissionMode: "allow-all-tools" }).args.slice(-3)).toEqual([
      "--allow-all-tools", "--model", "gpt-5",
    ]);
  });

  it("parses a JSON transcript: the model, tool executions as steps, messages as text, the result's session id and exit code", async () => {
    const events = (await readTranscript("copilot.jsonl")).flatMap((line) => copilotAdapter.parseLine(line, "stdout"));
    expect(events).toEqual([
      { type: "init", model: "gpt-5" },
      { type: "tool_use", id: "call_5", name: "bash", input: { command: 'printf "hi\\n" > hello.txt' } },
      { type: "tool_result", toolUseId: "call_5", output: "\n<shellId: 0 completed with exit code 0>", isError: false },
      { type: "text", text: "Wrote hello.txt." },
      { type: "log", text: "query: 400 double says 400" },
      { type: "init", sessionId: "70ef4ad4-ecb2-4e8d-9c96-f2fad84e9fdc" },
      { type: "result", ok: true },
    ]);
  });
});
