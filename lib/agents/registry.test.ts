import { describe, expect, it } from "vitest";
import { AGENT_NAMES, getAdapter, isAgentName, requireAdapter } from "@/lib/agents/registry";

describe("agent registry", () => {
  it("knows every adapter by its own name", () => {
    expect(AGENT_NAMES).toEqual(["claude", "codex", "gemini", "qwen", "pi", "opencode", "copilot", "cline", "kilo", "droid", "aider", "shell", "demo"]);
    for (const name of AGENT_NAMES) expect(requireAdapter(name).name).toBe(name);
  });

  it("answers null for an unknown name, and requireAdapter throws naming it and the known ones", () => {
    expect(getAdapter("cursor")).toBeNull();
    expect(getAdapter("toString")).toBeNull();
    expect(isAgentName("__proto__")).toBe(false);
    expect(() => requireAdapter("cursor")).toThrow('Unknown agent adapter "cursor"; expected one of: claude, codex, gemini, qwen, pi, opencode, copilot, cline, kilo, droid, aider, shell, demo');
  });

  // Linux refuses any single argument over 128 KiB (E2BIG) before the CLI starts.
  it.each(AGENT_NAMES.filter((n) => n !== "shell"))("%s: a 150 KB CJK prompt goes on stdin, never as an argument", (name) => {
    const prompt = "漢字".repeat(25_600);
    expect(Buffer.byteLength(prompt)).toBe(153_600);
    const cmd = requireAdapter(name).build({ prompt, model: "m", worktree: "/repo", extraArgs: ["--x"] });
    expect(cmd.stdin).toBe(prompt);
    expect(Math.max(...cmd.args.map((a) => Buffer.byteLength(a)))).toBeLessThan(100);
  });
});
