import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCampaign } from "@/lib/campaigns/create";
import { createTeamWithProject } from "./helpers/fixtures";
import { drive, goal, logOf, runsOf } from "./helpers/campaigns";

const git = (repo: string, ...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();

// Seed 002's architect context, as the agent process received it: the goal tells the demo
// architect to copy its input to its log (`echo-input`); its plan's one task fails four times.
describe("the architect's input", () => {
  it("holds the goal and the repo map without bodies and, after the breaker, the failed task's error tail", async () => {
    const plan = { tasks: [{ id: "t1", description: "Break", files: ["t1.txt"], stepHints: ["print boom-4711 happened\nexit 3"] }] };
    const { user, team, project, repoPath } = await createTeamWithProject({ cooldownMs: 0, maxParallel: 1 });
    mkdirSync(join(repoPath, "src"));
    writeFileSync(join(repoPath, "src/a.ts"), 'export function greet(name: string): string {\n  return "BODY-OF-GREET";\n}\n');
    git(repoPath, "add", ".");
    git(repoPath, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "sources");
    const actor = { kind: "user" as const, id: user.id, teamId: team.id, role: "owner" as const };
    const campaign = await createCampaign(actor as never, project, { goal: `${goal(plan)}\necho-input` });
    await drive(project.id, campaign.id, (c) => c.planVersion === 2);

    // What the agent copied to stderr, as its run's log keeps it.
    const inputOf = async (runId: string) => (await logOf(runId)).split("\n").filter((l) => l.startsWith("[stderr]")).map((l) => l.replace(/^\[stderr\] ?/, "")).join("\n");
    const [first, second] = await Promise.all((await runsOf(campaign.id, "architect")).map((r) => inputOf(r.id)));
    for (const input of [first, second]) {
      expect(input).toContain("Role: architect\n");
      expect(input).toContain("## Goal\nShip the feature in small steps.\n");
      expect(input).toContain("src/a.ts\n  export function greet(name: string): string\n");
      expect(input).not.toContain("BODY-OF-GREET");
    }
    expect(first).not.toContain("What went wrong last time");
    const given = second.slice(second.indexOf("## What went wrong last time"), second.indexOf("## Repository map"));
    expect(given).toMatch(/^## What went wrong last time\n```\nTask t1 failed after 4 attempts:\nagent exited with 3: Done: 0 of 0 edits applied\. Exiting with code 3\.\n/);
    expect(given).toContain("boom-4711 happened");
  });
});
