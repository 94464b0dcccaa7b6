import { describe, expect, it } from "vitest";
import { requireAdapter } from "@/lib/agents/registry";
import { conflictingArg, permissionArgs, permissionModesOf } from "@/lib/agents/permission-modes";

describe("permission modes", () => {
  it.each([
    ["claude", "--permission-mode", "bypassPermissions"],
    ["codex", "--sandbox", "danger-full-access"],
    ["gemini", "--approval-mode", "yolo"],
  ])("%s runs in its most permissive mode unless the profile picks another", (name, flag, mode) => {
    const adapter = requireAdapter(name);
    const args = (permissionMode?: string) => adapter.build({ prompt: "p", worktree: "/repo", permissionMode }).args;
    expect(args()).toEqual(expect.arrayContaining([flag, mode]));
    expect(args()[args().indexOf(flag) + 1]).toBe(mode);
    const other = permissionModesOf(name)!.modes[1].value;
    expect(args(other)[args(other).indexOf(flag) + 1]).toBe(other);
    expect(args(other).filter((a) => a === flag)).toHaveLength(1);
  });

  it.each([
    ["gemini", ["--yolo"], "--yolo"],
    ["gemini", ["--approval-mode=plan"], "--approval-mode=plan"],
    ["codex", ["-s", "read-only"], "-s"],
    ["codex", ["--dangerously-bypass-approvals-and-sandbox"], "--dangerously-bypass-approvals-and-sandbox"],
    ["claude", ["--max-turns", "3", "--permission-mode", "plan"], "--permission-mode"],
  ])("%s: extra arguments %j that set the mode again are found, and the adapter then adds no flag of its own", (name, extraArgs, found) => {
    expect(conflictingArg(name, extraArgs)).toBe(found);
    expect(permissionArgs(name, undefined, extraArgs)).toEqual([]);
    const args = requireAdapter(name).build({ prompt: "p", worktree: "/repo", extraArgs }).args;
    expect(args.filter((a) => a === permissionModesOf(name)!.flag)).toHaveLength(extraArgs.includes(permissionModesOf(name)!.flag) ? 1 : 0);
  });

  it("leaves other flags alone, and adapters without modes have none", () => {
    expect(conflictingArg("gemini", ["--yolo-ish", "--sandbox"])).toBeNull();
    expect(conflictingArg("claude", ["--permission-prompts", "host"])).toBeNull();
    for (const name of ["aider", "shell", "demo", "toString"]) {
      expect(permissionModesOf(name)).toBeNull();
      expect(permissionArgs(name, "yolo", [])).toEqual([]);
    }
  });
});
