// A queue that runs dry stops its loop; a paused campaign's waiting task is not new work and
// does not start the loop again (the snapshot leaves it out, and so does the re-check after the stop).
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { addPrompt } from "./helpers/fixtures";
import { activity, createBareProject, emptyQueues, loopStateOf } from "./helpers/runs";

beforeEach(emptyQueues);

async function dryProjectWithCampaign(paused: boolean) {
  const { project } = await createBareProject();
  const db = getDb();
  await db.loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
  const done = await addPrompt(project.id, { number: 1, title: "Done already", body: "x" });
  await db.prompt.update({ where: { id: done.id }, data: { status: "done", completedAt: new Date() } });
  const campaign = await db.campaign.create({ data: { projectId: project.id, title: "Search", goal: "Add search", phase: "executing", paused } });
  const task = await addPrompt(project.id, { number: 2, title: "Task t1", body: "y" });
  await db.prompt.update({ where: { id: task.id }, data: { campaignId: campaign.id } });
  return project;
}

describe("a dry queue beside a paused campaign", () => {
  it("stops the loop and keeps it stopped: the paused campaign's pending task does not restart it", async () => {
    const project = await dryProjectWithCampaign(true);
    const result = await runTick(project.id);
    expect(result.skipped ? null : result.decision.kind).toBe("all_done");
    expect((await loopStateOf(project.id)).mode).toBe("stopped");
    expect((await activity(project.id)).map((a) => a.message)).not.toContain("Loop started again: a prompt arrived as the queue ran dry");
  });
});

describe("a campaign's last task landing while the tick's campaign step runs", () => {
  it("completes the campaign in that tick, and the loop stops behind it, not under it", async () => {
    const { project } = await createBareProject();
    const db = getDb();
    await db.loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    const campaign = await db.campaign.create({
      data: { projectId: project.id, title: "Notes", goal: "Write notes", phase: "executing", planVersion: 1, tasksTotal: 2, tasksCompleted: 0, milestones: [25, 50] },
    });
    const first = await addPrompt(project.id, { number: 1, title: "notes", body: "x" });
    const last = await addPrompt(project.id, { number: 2, title: "index", body: "y" });
    await db.prompt.update({ where: { id: first.id }, data: { campaignId: campaign.id, campaignPlan: 1, taskId: "notes", status: "done", completedAt: new Date() } });
    await db.prompt.update({ where: { id: last.id }, data: { campaignId: campaign.id, campaignPlan: 1, taskId: "index", status: "in_progress" } });
    // The last task's merge lands right after the step counted the tasks (its count of 1 done is
    // what the step writes to the campaign): a trigger on that write marks the task done.
    await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION land_last_task() RETURNS trigger AS $$
      BEGIN UPDATE "Prompt" SET status = 'done', "completedAt" = now() WHERE id = '${last.id}'; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER land_last_task AFTER UPDATE OF "tasksCompleted" ON "Campaign" FOR EACH ROW WHEN (NEW.id = '${campaign.id}') EXECUTE FUNCTION land_last_task()`);
    try {
      const result = await runTick(project.id);
      expect(result.skipped ? null : result.decision.kind).toBe("all_done");
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER land_last_task ON "Campaign"`);
    }
    const after = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(after).toMatchObject({ phase: "completed", tasksCompleted: 2 });
    expect((await db.campaignEvent.findMany({ where: { campaignId: campaign.id } })).map((e) => e.kind)).toEqual(["completed"]);
    expect((await loopStateOf(project.id)).mode).toBe("stopped");
  });
});

describe("a campaign task landing while the tick's campaign step runs, past a milestone", () => {
  it("starts the milestone's drift check in that tick and holds the next task behind it", async () => {
    const { project } = await createBareProject();
    const db = getDb();
    await db.loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    await db.projectSettings.update({ where: { projectId: project.id }, data: { spawnCooldownMs: 0 } });
    // tasksCompleted is stale on purpose: the step writes its count (0 done), and that write lands the first task.
    const campaign = await db.campaign.create({ data: { projectId: project.id, title: "Notes", goal: "Write notes", phase: "executing", planVersion: 1, tasksTotal: 2, tasksCompleted: 5 } });
    const first = await addPrompt(project.id, { number: 1, title: "notes", body: "x" });
    const next = await addPrompt(project.id, { number: 2, title: "index", body: "y", dependencies: [1] });
    await db.prompt.update({ where: { id: first.id }, data: { campaignId: campaign.id, campaignPlan: 1, taskId: "notes", status: "in_progress" } });
    await db.prompt.update({ where: { id: next.id }, data: { campaignId: campaign.id, campaignPlan: 1, taskId: "index" } });
    await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION land_first_task() RETURNS trigger AS $$
      BEGIN UPDATE "Prompt" SET status = 'done', "completedAt" = now() WHERE id = '${first.id}'; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER land_first_task AFTER UPDATE OF "tasksCompleted" ON "Campaign" FOR EACH ROW WHEN (NEW.id = '${campaign.id}' AND NEW."tasksCompleted" = 0) EXECUTE FUNCTION land_first_task()`);
    try {
      const result = await runTick(project.id);
      expect(result.skipped ? null : result.decision.kind).toBe("blocked_planner");
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER land_first_task ON "Campaign"`);
    }
    const runs = await db.run.findMany({ where: { projectId: project.id } });
    expect(runs.map((r) => r.kind)).toEqual(["reflector"]);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).milestones).toEqual([25, 50]);
    expect((await db.prompt.findUniqueOrThrow({ where: { id: next.id } })).status).toBe("pending");
  });
});

describe("an open campaign with no agent profile to plan with, beside an empty queue", () => {
  it("steps it once more and then decides: the tick ends all done, the loop still running for the first prompt", async () => {
    const { project } = await createBareProject();
    const db = getDb();
    await db.loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    await db.projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: null, plannerProfileId: null } });
    const campaign = await db.campaign.create({ data: { projectId: project.id, title: "Search", goal: "Add search" } });
    expect(await runTick(project.id)).toEqual({ skipped: false, decision: { kind: "all_done", message: "All done: no pending or in-progress prompts and no planner configured" } });
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({ phase: "planning", failures: 0 });
    expect(await db.run.count({ where: { projectId: project.id } })).toBe(0);
    expect(await loopStateOf(project.id)).toMatchObject({ mode: "running", tickCount: 1, tickLockedBy: null });
  });
});
