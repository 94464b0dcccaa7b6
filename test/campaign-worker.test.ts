import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { createCampaign } from "@/lib/campaigns/create";
import { createTeamWithProject } from "./helpers/fixtures";
import { logOf } from "./helpers/campaigns";
import { tickAndRun } from "./helpers/run-once";

const git = (repo: string, ...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();

// Seed 002's worker context: its task, hints, criteria and the files it names, nothing else; git as
// memory: one commit per task. The worker is a shell agent that prints the input it was given.
describe("a campaign worker", () => {
  it("is given only its task, hints, criteria and named files, works on its own branch and lands one commit `feat(<id>): <description>`", async () => {
    const { team, user, project, repoPath } = await createTeamWithProject({ cooldownMs: 0, maxParallel: 1 });
    mkdirSync(join(repoPath, "src"));
    writeFileSync(join(repoPath, "src/a.ts"), "export const a = 1; // CONTENT-OF-A\n");
    writeFileSync(join(repoPath, "src/secret.ts"), "export const s = 'CONTENT-OF-AN-UNNAMED-FILE';\n");
    git(repoPath, "add", ".");
    git(repoPath, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "sources");
    const baseBefore = git(repoPath, "rev-parse", "main");
    const agent = await getDb().agentProfile.create({ data: { teamId: team.id, name: "echo", adapter: "shell", commandTemplate: "cat; echo b > src/b.ts" } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: agent.id } });
    const actor = { kind: "user" as const, id: user.id, teamId: team.id, role: "owner" as const };
    const plan = {
      tasks: [
        { id: "t1", description: "Add b next to a", files: ["src/a.ts", "src/b.ts"], stepHints: ["copy the style of a"], entryCriteria: ["a exists"], exitCriteria: ["b exists"] },
        { id: "t2", description: "OTHER-TASK-DESCRIPTION", files: ["src/secret.ts"], dependencies: ["t1"] },
      ],
    };
    await createCampaign(actor as never, project, { goal: "GOAL-TEXT-OF-THE-CAMPAIGN", plan });

    const { run } = await tickAndRun(project.id);
    expect(run).toMatchObject({ status: "succeeded", kind: "executor", prompt: { taskId: "t1" } });
    const input = (await logOf(run!.id)).split("\n").filter((l) => !l.startsWith("[")).join("\n");
    expect(input).toContain([
      "Role: worker", "", "# Task t1: Add b next to a", "", "Add b next to a", "", "## Step hints", "- copy the style of a", "",
      "## Entry criteria", "- a exists", "", "## Exit criteria", "- b exists", "", "## Files", "- `src/a.ts`", "- `src/b.ts`", "",
      "## src/a.ts", "````", "export const a = 1; // CONTENT-OF-A", "", "````", "", "## src/b.ts", "(does not exist yet)",
    ].join("\n"));
    // Not the goal, not another task, not a file the task does not name.
    for (const absent of ["GOAL-TEXT-OF-THE-CAMPAIGN", "OTHER-TASK-DESCRIPTION", "CONTENT-OF-AN-UNNAMED-FILE"]) expect(input).not.toContain(absent);

    // Its own branch, never the base branch; the base gets exactly one commit for the task.
    expect(run!.branch).toBe("ringmaster/1-add-b-next-to-a");
    expect(git(repoPath, "log", "--format=%s", `${baseBefore}..main`)).toBe("feat(t1): Add b next to a");
    expect(git(repoPath, "diff", "--name-only", baseBefore, "main")).toBe("src/b.ts");
  });
});
