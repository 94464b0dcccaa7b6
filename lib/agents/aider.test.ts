import { describe, expect, it } from "vitest";
import { aiderAdapter } from "@/lib/agents/aider";
import { readTranscript } from "@/lib/agents/testing";

describe("aider adapter", () => {
  it("runs aider on one message read from stdin, saying yes to everything, with plain unstreamed output", () => {
    expect(aiderAdapter.build({ prompt: "-m fix it", worktree: "/repo" })).toEqual({
      command: "aider",
      args: ["--message-file=/dev/stdin", "--yes-always", "--no-pretty", "--no-stream"],
      stdin: "-m fix it",
    });
    expect(aiderAdapter.build({ prompt: "p", model: "sonnet", worktree: "/repo", extraArgs: ["--no-auto-commits"] }).args.slice(-3)).toEqual([
      "--model", "sonnet", "--no-auto-commits",
    ]);
  });

  it("reads stdout as the agent's text and stderr as log, skipping blank lines", async () => {
    const lines = await readTranscript("aider.txt");
    const events = lines.flatMap((line) => aiderAdapter.parseLine(line, "stdout"));
    expect(events).toHaveLength(lines.filter((l) => l.trim() !== "").length);
    expect(events).toContainEqual({ type: "text", text: "Applied edit to hello.txt" });
    expect(events.every((e) => e.type === "text")).toBe(true);
    expect(aiderAdapter.parseLine("Warning: it's best to only add files that need changes", "stderr")).toEqual([
      { type: "log", text: "Warning: it's best to only add files that need changes" },
    ]);
  });
});
