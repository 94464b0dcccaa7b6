import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { campaignBranch, mirrorCampaignState, STATE_PATH } from "@/lib/campaigns/mirror";
import { controlCampaign } from "@/lib/campaigns/controls";
import { drive, setUp, task } from "./helpers/campaigns";

const git = (repo: string, ...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
const stateAt = (repo: string, ref: string) => JSON.parse(git(repo, "show", `${ref}:${STATE_PATH}`));

// Seed 002 keeps a campaign's brain in `.campaign/state.json`; Postgres owns it here, and git gets
// a mirror on the campaign's own branch, written without a work tree, a hook or the base branch.
describe("the campaign's state in git", () => {
  it("follows the campaign on its own branch to COMPLETED; the base branch, work tree and hooks are untouched", async () => {
    const { project, campaign, repoPath, user, team, profile } = await setUp({ tasks: [task("t1"), task("t2", { dependencies: ["t1"] })] });
    const marker = join(repoPath, "hook-ran");
    for (const hook of ["reference-transaction", "post-commit", "pre-commit", "post-checkout"]) {
      writeFileSync(join(repoPath, ".git", "hooks", hook), `#!/bin/sh\necho ${hook} >> ${marker}\n`);
      chmodSync(join(repoPath, ".git", "hooks", hook), 0o755);
    }
    const branch = campaignBranch(campaign.id);
    // Created in PLANNING: the branch starts from the base branch with the state added.
    expect(stateAt(repoPath, branch)).toMatchObject({ campaign: campaign.id, status: "PLANNING", plan_version: 0, plan: null, logs: null });
    expect(git(repoPath, "rev-parse", `${branch}~1`)).toBe(git(repoPath, "rev-parse", "main"));

    await drive(project.id, campaign.id, (c) => c.phase === "completed");
    const state = stateAt(repoPath, branch);
    expect(state).toMatchObject({ status: "COMPLETED", plan_version: 1, milestones: [25, 50], metrics: { tasks_total: 2, tasks_completed: 2, tasks_failed: 0 } });
    expect(state.project_goal).toBe(campaign.goal);
    expect(state.plan.tasks.map((t: { id: string; status: string; retry_counter: number }) => [t.id, t.status, t.retry_counter])).toEqual([["t1", "COMPLETED", 0], ["t2", "COMPLETED", 0]]);
    const subjects = git(repoPath, "log", "--format=%s", branch, "^main").split("\n");
    expect(subjects.at(-1)).toBe(`campaign(${campaign.id}): PLANNING, plan 0, 0/0 tasks done`);
    expect(subjects[0]).toBe(`campaign(${campaign.id}): COMPLETED, plan 1, 2/2 tasks done`);
    // Only the state file differs from where the branch started; nothing of it is on the base branch.
    expect(git(repoPath, "diff", "--name-only", `${branch}~${subjects.length}`, branch)).toBe(STATE_PATH);
    expect(git(repoPath, "log", "--format=%s", "main")).not.toContain("campaign(");
    expect(git(repoPath, "ls-tree", "-r", "--name-only", "main")).not.toContain(".campaign");
    expect(git(repoPath, "status", "--porcelain")).toBe("");
    expect(existsSync(join(repoPath, ".campaign"))).toBe(false);
    expect(existsSync(marker)).toBe(false);

    // Nothing changed: no new commit.
    const tip = git(repoPath, "rev-parse", branch);
    expect(await mirrorCampaignState(campaign.id)).toBeNull();
    expect(git(repoPath, "rev-parse", branch)).toBe(tip);

    // A campaign cancelled from the dashboard gets no more ticks; its last state is mirrored at once.
    const other = await setUp({ tasks: [task("a1")] }, {}, { fixture: { project, repoPath, user, team, profile } });
    const actor = { kind: "user" as const, id: user.id, teamId: team.id, role: "owner" as const };
    await controlCampaign(actor as never, project, other.campaign.id, "cancel");
    expect(stateAt(repoPath, campaignBranch(other.campaign.id))).toMatchObject({ status: "CANCELLED", plan_version: 0 });
  });
});
