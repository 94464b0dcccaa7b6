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
