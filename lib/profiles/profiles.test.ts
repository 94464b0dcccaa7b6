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

  it("keeps a permission mode of the adapter, and empty means the adapter's default", () => {
    expect(profileInput.parse({ name: "g", adapter: "gemini", permissionMode: "auto_edit" }).permissionMode).toBe("auto_edit");
    expect(profileInput.parse({ name: "g", adapter: "gemini", permissionMode: "" }).permissionMode).toBeNull();
  });

  it.each([
    [{ adapter: "gemini", permissionMode: "bypassPermissions" }, ["permissionMode"], "must be one of yolo, auto_edit, default, plan for the gemini adapter"],
    [{ adapter: "aider", permissionMode: "yolo" }, ["permissionMode"], "is not a setting of the aider adapter; leave it empty"],
    [{ adapter: "gemini", extraArgs: ["--debug", "--yolo"] }, ["extraArgs", 1], "must not set the permission mode (--yolo): choose it in Permission mode, the CLI refuses it twice"],
    [{ adapter: "codex", extraArgs: ["--sandbox=read-only"] }, ["extraArgs", 0], "must not set the permission mode (--sandbox=read-only): choose it in Permission mode, the CLI refuses it twice"],
  ])("refuses %j, naming the field", (input, path, message) => {
    const r = profileInput.safeParse({ name: "p", ...input });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path, i.message])).toEqual([[path, message]]);
  });
});
