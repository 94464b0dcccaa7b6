import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { architectInput, parseVerdict, tail, taskBody, workerInput } from "@/lib/campaigns/inputs";

describe("what each role is given (seed 002's context window management)", () => {
  it("the architect: goal, repo map and the failure log, nothing else", () => {
    const input = architectInput({ goal: "Make it fast", failureLog: "Task t2 failed after 4 attempts:\nboom" }, "src/a.ts\n  export function a()\n");
    expect(input.split("\n")[0]).toBe("Role: architect");
    expect(input).toContain("## Goal\nMake it fast\n");
    expect(input).toContain("## What went wrong last time\n```\nTask t2 failed after 4 attempts:\nboom\n```");
    expect(input).toContain("```\nsrc/a.ts\n  export function a()\n```");
    expect(architectInput({ goal: "g", failureLog: null }, "")).not.toContain("What went wrong");
  });

  it("keeps the tail of a long failure log, where the error is", () => {
    expect(tail("a".repeat(10) + "END", 5)).toBe("…aaEND");
    expect(tail("short", 5)).toBe("short");
  });

  it("a worker: its task, hints, criteria and the current contents of its files only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "worker-"));
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src/a.ts"), "export const a = 1;\n");
    writeFileSync(join(dir, "src/other.ts"), "SHOULD NOT BE SEEN\n");
    const body = taskBody({ id: "t1", description: "Add b", files: ["src/a.ts", "src/new.ts"], stepHints: ["one line", "```file x\ny\n```"], entryCriteria: [], exitCriteria: ["tests pass"], dependencies: [] });
    expect(body).toBe("Add b\n\n## Step hints\n- one line\n\n```file x\ny\n```\n\n\n## Exit criteria\n- tests pass\n\n## Files\n- `src/a.ts`\n- `src/new.ts`");
    const input = await workerInput({ taskId: "t1", title: "Add b", body, files: ["src/a.ts", "src/new.ts", "../outside.txt"] }, dir);
    expect(input.startsWith("Role: worker\n\n# Task t1: Add b\n\nAdd b\n")).toBe(true);
    expect(input).toContain("## src/a.ts\n````\nexport const a = 1;\n\n````");
    expect(input).toContain("## src/new.ts\n(does not exist yet)");
    expect(input).not.toContain("SHOULD NOT BE SEEN");
    expect(input).not.toContain("outside.txt\n");
  });

  it("reads the reflector's verdict; an unreadable one is not a drift", () => {
    expect(parseVerdict('Sure: {"aligned": false, "reason": "off track"}')).toEqual({ aligned: false, reason: "off track" });
    expect(parseVerdict("no idea")).toEqual({ aligned: true, reason: "the reflector's answer could not be read" });
    expect(parseVerdict(null)).toEqual({ aligned: true, reason: "the reflector's answer could not be read" });
  });
});
