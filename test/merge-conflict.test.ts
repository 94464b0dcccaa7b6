import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { executeRun } from "@/lib/runs/execute";
import { mergeRun } from "@/lib/runs/merge";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

const writes = (content: string) => `\`\`\`file shared.txt\n${content}\n\`\`\`\n`;

describe("the merge queue (seed 003) and invariant 5", () => {
  it("sends work that no longer applies back to the queue, keeps its worktree, and redoes it from the new base", async () => {
    const { project, repoPath } = await createTeamWithProject({ maxParallel: 2, cooldownMs: 0 });
    await addPrompt(project.id, { number: 1, title: "first", body: writes("one") });
    const p2 = await addPrompt(project.id, { number: 2, title: "second", body: writes("two") });
    await runTick(project.id);
    await runTick(project.id);
    const runs = await getDb().run.findMany({ where: { projectId: project.id }, orderBy: { queuedAt: "asc" } });
    expect(runs).toHaveLength(2);
    await Promise.all(runs.map((r) => executeRun(r.id)));

    expect(await mergeRun(runs[0].id)).toBe("merged");
    expect(await mergeRun(runs[1].id)).toBe("conflict");
    const conflicted = await getDb().run.findUniqueOrThrow({ where: { id: runs[1].id } });
    expect(conflicted.error).toMatch(/conflict in shared\.txt/);
    // The unmerged work is kept, never deleted.
    expect(existsSync(conflicted.worktreePath!)).toBe(true);
    const back = await getDb().prompt.findUniqueOrThrow({ where: { id: p2.id } });
    expect(back).toMatchObject({ status: "pending", attempts: 0, branch: null });
    expect(readFileSync(join(repoPath, "shared.txt"), "utf8").trim()).toBe("one");

    const redo = await tickAndRun(project.id);
    expect(redo.run!.promptId).toBe(p2.id);
    expect(redo.run!.branch).toBe(`${conflicted.branch}-2`);
    expect(redo.run!.mergeStatus).toBe("merged");
    expect(readFileSync(join(repoPath, "shared.txt"), "utf8").trim()).toBe("two");
    expect(existsSync(conflicted.worktreePath!)).toBe(true);
  });
});
