import { describe, expect, it } from "vitest";
import { AGENT_NAMES, getAdapter, isAgentName, requireAdapter } from "@/lib/agents/registry";

describe("agent registry", () => {
  it("knows every adapter by its own name", () => {
    expect(AGENT_NAMES).toEqual(["claude", "codex", "gemini", "aider", "shell", "demo"]);
    for (const name of AGENT_NAMES) expect(requireAdapter(name).name).toBe(name);
  });

  it("answers null for an unknown name, and requireAdapter throws naming it and the known ones", () => {
    expect(getAdapter("cursor")).toBeNull();
    expect(getAdapter("toString")).toBeNull();
    expect(isAgentName("__proto__")).toBe(false);
    expect(() => requireAdapter("cursor")).toThrow('Unknown agent adapter "cursor"; expected one of: claude, codex, gemini, aider, shell, demo');
  });
});
