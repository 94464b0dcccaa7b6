import { describe, expect, it } from "vitest";
import { kiloAdapter } from "@/lib/agents/kilo";

describe("kilo adapter", () => {
  it("runs `kilo run` with JSON events, --auto by default and the prompt on stdin", () => {
    expect(kiloAdapter.build({ prompt: "--auto fix it", worktree: "/repo" })).toEqual({
      command: "kilo",
      args: ["run", "--format", "json", "--auto"],
      stdin: "--auto fix it",
    });
    expect(kiloAdapter.build({ prompt: "p", model: "double/gpt-5", worktree: "/repo", permissionMode: "config" }).args).toEqual([
      "run", "--format", "json", "--model", "double/gpt-5",
    ]);
  });
});
