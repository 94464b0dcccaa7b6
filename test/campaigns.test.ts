import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { drive, events, logOf, runsOf, setUp, task } from "./helpers/campaigns";

describe("campaigns (seed 002)", () => {
  it("plan → execute → complete: one commit per task, milestones at 25/50/75 % once each", async () => {
    const plan = { tasks: [task("t1"), task("t2", { dependencies: ["t1"] }), task("t3", { dependencies: ["t1"] }), task("t4", { dependencies: ["t2", "t3"] })] };
    const { project, campaign, repoPath } = await setUp(plan);
    const done = await drive(project.id, campaign.id, (c) => c.phase === "completed");
    expect(done).toMatchObject({ phase: "completed", planVersion: 1, tasksTotal: 4, tasksCompleted: 4, tasksFailed: 0, milestones: [25, 50, 75] });

    const prompts = await getDb().prompt.findMany({ where: { campaignId: campaign.id }, orderBy: { number: "asc" } });
    expect(prompts.map((p) => [p.number, p.taskId, p.dependencies, p.status, p.origin])).toEqual([
      [1, "t1", [], "done", "campaign"], [2, "t2", [1], "done", "campaign"], [3, "t3", [1], "done", "campaign"], [4, "t4", [2, 3], "done", "campaign"],
    ]);
    const log = execFileSync("git", ["log", "--format=%s", "main"], { cwd: repoPath, encoding: "utf8" }).trim().split("\n");
    expect(log.slice(0, 4)).toEqual(["feat(t4): Write t4", "feat(t3): Write t3", "feat(t2): Write t2", "feat(t1): Write t1"]);
    expect(readFileSync(join(repoPath, "t4.txt"), "utf8")).toBe("t4 done\n");

    // The architect and reflectors change no code: nothing of theirs is committed or merged.
    const [architect] = await runsOf(campaign.id, "architect");
    expect(architect).toMatchObject({ status: "succeeded", commitSha: null, mergeStatus: null });
    expect(await logOf(architect.id)).toMatch(/^Architect input: goal \(\d+ characters\), repo map of [0-9a-f]{12} \(\d+ bytes\)/m);
    expect((await runsOf(campaign.id, "reflector")).map((r) => r.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect((await events(campaign.id)).map(([kind]) => kind)).toEqual(["created", "plan", "milestone", "aligned", "milestone", "aligned", "milestone", "aligned", "completed"]);
    expect((await events(campaign.id)).at(-1)).toEqual(["completed", "Campaign complete!"]);
    const activity = await getDb().activityEvent.findMany({ where: { projectId: project.id, type: "campaignChange" } });
    expect(activity.map((a) => a.message)).toContain(`Campaign "${campaign.title}": Campaign complete!`);
  });

  it.each([[6, [2, 3, 5]], [7, [2, 4, 6]]])("with %i tasks each milestone fires one drift check, after tasks %j", async (count, after) => {
    const ids = Array.from({ length: count }, (_, i) => `t${i + 1}`);
    const { project, campaign } = await setUp({ tasks: ids.map((id, i) => task(id, { dependencies: i ? [ids[i - 1]] : [] })) });
    await drive(project.id, campaign.id, (c) => c.phase === "completed", 30);
    const reflectors = await runsOf(campaign.id, "reflector");
    expect(reflectors).toHaveLength(3);
    // Each drift check started right after the task that crossed its milestone.
    const doneAt = await Promise.all(reflectors.map((r) => getDb().prompt.count({ where: { campaignId: campaign.id, status: "done", completedAt: { lte: r.queuedAt } } })));
    expect(doneAt).toEqual(after);
    const milestones = (await events(campaign.id)).filter(([kind]) => kind === "milestone").map(([, m]) => m.slice(0, 14));
    expect(milestones).toEqual(["Milestone 25 %", "Milestone 50 %", "Milestone 75 %"]);
  });

  it("a task failing 4 times (models alternating) fails, and the campaign re-plans with its error tail", async () => {
    const failing = task("t2", { stepHints: ["print boom-4711 happened\nexit 3"] });
    const { project, campaign } = await setUp({ tasks: [task("t1"), failing] });
    const replanned = await drive(project.id, campaign.id, (c) => c.phase === "planning" && c.planVersion === 1);
    // t1 done is half of two tasks: the 25 and 50 % milestones fired at once, with one drift check.
    expect(replanned).toMatchObject({ tasksFailed: 1, milestones: [25, 50] });
    expect(replanned.failureLog).toMatch(/^Task t2 failed after 4 attempts:\n/);
    expect(replanned.failureLog).toContain("boom-4711 happened");

    const t2 = await getDb().prompt.findFirstOrThrow({ where: { campaignId: campaign.id, taskId: "t2" }, include: { runs: { orderBy: { attempt: "asc" } } } });
    expect(t2).toMatchObject({ status: "failed", attempts: 4 });
    expect(t2.runs.map((r) => [r.attempt, r.model, r.status])).toEqual([[1, "model-a", "failed"], [2, "model-b", "failed"], [3, "model-a", "failed"], [4, "model-b", "failed"]]);

    // The next architect run is given the failure log's tail.
    await drive(project.id, campaign.id, (c) => c.planVersion === 2);
    const architects = await runsOf(campaign.id, "architect");
    expect(architects).toHaveLength(2);
    const second = await logOf(architects[1].id);
    expect(second).toContain("Last failure log given to the architect:\nTask t2 failed after 4 attempts:");
    expect(second).toContain("boom-4711 happened");
    expect(await logOf(architects[0].id)).not.toContain("Last failure log");
  });

  it("a drift verdict at 50 % sends the campaign back to planning with the reason", async () => {
    const plan = { tasks: ["t1", "t2", "t3", "t4"].map((id, i, all) => task(id, { dependencies: i ? [all[i - 1]] : [] })) };
    const { project, campaign } = await setUp(plan, { 50: { aligned: false, reason: "the work polishes docs instead of shipping" } });
    const drifted = await drive(project.id, campaign.id, (c) => c.phase === "planning" && c.planVersion === 1);
    expect(drifted.failureLog).toBe("DRIFT DETECTED: the work polishes docs instead of shipping");
    expect(drifted.milestones).toEqual([25, 50]);
    const prompts = await getDb().prompt.findMany({ where: { campaignId: campaign.id }, orderBy: { number: "asc" } });
    expect(prompts.map((p) => [p.taskId, p.status])).toEqual([["t1", "done"], ["t2", "done"], ["t3", "cancelled"], ["t4", "cancelled"]]);
    expect((await events(campaign.id)).filter(([k]) => k === "drift" || k === "aligned")).toEqual([
      ["aligned", "Drift check: aligned (on track)"], ["drift", "DRIFT DETECTED: the work polishes docs instead of shipping"],
    ]);
    await drive(project.id, campaign.id, (c) => c.planVersion === 2);
    const architects = await runsOf(campaign.id, "architect");
    expect(await logOf(architects[1].id)).toContain("DRIFT DETECTED: the work polishes docs instead of shipping");
  });

  it("an invalid plan fails the architect run with the errors in its log; four in a row fail the campaign", async () => {
    const { project, campaign } = await setUp('{"tasks": [{"id": "a", "description": "A", "dependencies": ["b"]}, {"id": "b", "description": "B", "dependencies": ["a"]}]}');
    const failed = await drive(project.id, campaign.id, (c) => c.phase === "failed", 10);
    expect(failed).toMatchObject({ failures: 4, planVersion: 0 });
    const architects = await runsOf(campaign.id, "architect");
    expect(architects.map((r) => [r.status, r.error])).toEqual(Array(4).fill(["failed", "invalid plan: dependency cycle: a → b → a"]));
    expect(await logOf(architects[0].id)).toContain("The plan is invalid:\n  dependency cycle: a → b → a");
    expect(await getDb().prompt.count({ where: { campaignId: campaign.id } })).toBe(0);
    const notJson = await setUp("this is not json");
    await drive(notJson.project.id, notJson.campaign.id, (c) => c.failures === 1, 3);
    const [run] = await runsOf(notJson.campaign.id, "architect");
    expect(run.error).toMatch(/^invalid plan: the plan is not valid JSON: /);
  });
});
