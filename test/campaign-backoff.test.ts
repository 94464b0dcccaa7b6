import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { MAX_REPLANS } from "@/lib/campaigns/state";
import { NOTICES_TITLE } from "@/lib/threads/notices";
import { drive, events, runsOf, setUp, task } from "./helpers/campaigns";
import { tickAndRun } from "./helpers/run-once";

// A campaign that keeps failing must not re-plan in a tight loop: each automatic re-plan waits the
// planner's backoff (the project's 10 s cooldown × 2^min(n−1, 4)), and past the cap it fails.
describe("the re-plan backoff", () => {
  it("waits 10 s, then 20 s before the next architect; past the cap the campaign fails with the reason", async () => {
    // Every plan has two tasks and drifts at 50 %: the campaign never gets anywhere.
    const { project, campaign } = await setUp({ tasks: [task("t1"), task("t2", { dependencies: ["t1"] })] }, { 50: { aligned: false, reason: "off goal" } }, { cooldownMs: 10_000 });
    const start = Date.now() + 3_600_000;
    let offset = 0;
    const clock = () => new Date(start + offset);

    const first = await drive(project.id, campaign.id, (c) => c.phase === "planning" && c.planVersion === 1, 40, clock);
    expect(first).toMatchObject({ replans: 1, planAfter: new Date(start + 10_000), failureLog: "DRIFT DETECTED: off goal" });
    // Before the backoff ends, no architect starts and the prompt loop is held, not finished.
    const { tick } = await tickAndRun(project.id, clock);
    expect(tick).toEqual({ skipped: false, decision: { kind: "blocked_planner", message: `Campaign "${campaign.title}": re-planning backs off until ${new Date(start + 10_000).toISOString()}` } });
    expect(await runsOf(campaign.id, "architect")).toHaveLength(1);

    offset = 10_000;
    const second = await drive(project.id, campaign.id, (c) => c.phase === "planning" && c.planVersion === 2, 40, clock);
    expect(second).toMatchObject({ replans: 2, planAfter: new Date(start + 10_000 + 20_000) });
    expect(await runsOf(campaign.id, "architect")).toHaveLength(2);

    // A campaign that has used up its re-plans fails at the next reason to re-plan, with that reason:
    // t1 completed in every plan, but a drift says that work was not progress.
    await getDb().campaign.update({ where: { id: campaign.id }, data: { replans: MAX_REPLANS } });
    offset = 30_000;
    const failed = await drive(project.id, campaign.id, (c) => c.phase === "failed", 40, clock);
    expect(failed).toMatchObject({ planVersion: 3, replans: MAX_REPLANS, failureLog: "DRIFT DETECTED: off goal" });
    const message = `Gave up after ${MAX_REPLANS} re-plans in a row without progress; the last reason: DRIFT DETECTED: off goal`;
    expect((await events(campaign.id)).at(-1)).toEqual(["failed", message]);
    const prompts = await getDb().prompt.findMany({ where: { campaignId: campaign.id, campaignPlan: 3 }, orderBy: { number: "asc" } });
    expect(prompts.map((p) => [p.taskId, p.status])).toEqual([["t1", "done"], ["t2", "cancelled"]]);
    const thread = await getDb().thread.findFirstOrThrow({ where: { projectId: project.id, title: NOTICES_TITLE }, include: { turns: { orderBy: { createdAt: "desc" }, take: 1 } } });
    expect(thread.turns[0].content).toBe(`Campaign "${campaign.title}" failed: ${message}`);
    // A failed campaign starts nothing more.
    offset = 3_600_000;
    await tickAndRun(project.id, clock);
    expect(await runsOf(campaign.id, "architect")).toHaveLength(3);
  });

  it("a broken task after a task of its plan completed starts the count again: 1 re-plan in a row, the first wait", async () => {
    const { project, campaign } = await setUp({ tasks: [task("t1"), task("t2", { dependencies: ["t1"], stepHints: ["print boom-99\nexit 3"] })] }, {}, { cooldownMs: 10_000 });
    // Five re-plans in a row already: without the completed t1 this re-plan would fail the campaign.
    await getDb().campaign.update({ where: { id: campaign.id }, data: { replans: MAX_REPLANS } });
    const start = Date.now() + 3_600_000;
    let offset = 0;
    // Each step a minute later: the task's retries are not held by their backoff.
    const clock = () => new Date(start + (offset += 60_000));
    const replanned = await drive(project.id, campaign.id, (c) => c.phase === "planning" && c.planVersion === 1, 40, clock);
    expect(replanned.replans).toBe(1);
    // The wait is the first step of the curve, 10 s after the tick that re-planned (not 160 s).
    expect((replanned.planAfter!.getTime() - start) % 60_000).toBe(10_000);
    const replan = (await events(campaign.id)).filter(([kind]) => kind === "replan");
    expect(replan).toEqual([["replan", "Task t2 failed after 4 attempts: agent exited with 3: Done: 0 of 0 edits applied. Exiting with code 3."]]);
  });
});
