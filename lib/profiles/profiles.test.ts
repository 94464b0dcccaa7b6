import { describe, expect, it } from "vitest";
import { AGENT_NAMES } from "@/lib/agents/registry";
import { ADAPTERS } from "@/lib/profiles/adapters";
import { profileInput } from "@/lib/profiles/profiles";

describe("agent profile input", () => {
  it("lists exactly the registered adapters", () => {
    expect([...ADAPTERS].sort()).toEqual([...AGENT_NAMES].sort());
  });

  it("requires a command template for the shell adapter and names the field", () => {
    const r = profileInput.safeParse({ name: "custom", adapter: "shell" });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path).toEqual(["commandTemplate"]);
  });

  it("rejects environment names that are not variable names", () => {
    const r = profileInput.safeParse({ name: "c", adapter: "claude", envAllowList: ["ANTHROPIC_API_KEY", "bad name"] });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path).toEqual(["envAllowList", 1]);
  });
});
