// A campaign's drift check that cannot start yet (the spawn cooldown, a busy slot) holds the
// prompt loop: seed 002's check is mandatory before the next task, so the loop must not hand the
// freed slot to that task in the same tick, when its own clock reading is a moment later.
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { addPrompt } from "./helpers/fixtures";
import { announced, createBareProject, emptyQueues } from "./helpers/runs";

beforeEach(emptyQueues);

async function halfDoneCampaign() {
  const { project } = await createBareProject();
  const db = getDb();
  const lastSpawnAt = new Date(Date.now() - 60_000);
  await db.projectSettings.update({ where: { projectId: project.id }, data: { spawnCooldownMs: 10_000, parallelEnabled: false, maxParallel: 1 } });
  await db.loopState.update({ where: { projectId: project.id }, data: { mode: "running", lastSpawnAt } });
  const campaign = await db.campaign.create({
    data: { projectId: project.id, title: "Notes", goal: "Write notes", phase: "executing", planVersion: 1, tasksTotal: 2, tasksCompleted: 1 },
  });
  const notes = await addPrompt(project.id, { number: 1, title: "notes", body: "x" });
  const index = await addPrompt(project.id, { number: 2, title: "index", body: "y", dependencies: [1] });
  await db.prompt.update({ where: { id: notes.id }, data: { campaignId: campaign.id, campaignPlan: 1, taskId: "notes", status: "done", completedAt: lastSpawnAt } });
  await db.prompt.update({ where: { id: index.id }, data: { campaignId: campaign.id, campaignPlan: 1, taskId: "index" } });
  return { project, campaign, index, lastSpawnAt };
}

/** The tick's clock: the first reading (the campaign step's) `first` ms after `from`, every later one `later` ms after. */
function clock(from: Date, first: number, later: number) {
  let readings = 0;
  return () => new Date(from.getTime() + (readings++ === 0 ? first : later));
}

describe("a drift check due at a milestone", () => {
  it("holds the loop while the cooldown refuses it, though the cooldown ends before the loop decides; then starts first", async () => {
    const { project, campaign, index, lastSpawnAt } = await halfDoneCampaign();
    const db = getDb();
    const held = await runTick(project.id, clock(lastSpawnAt, 9_500, 10_500));
    expect(held.skipped ? null : held.decision).toMatchObject({ kind: "blocked_planner", message: 'Campaign "Notes": the drift check at 50 % waits for a free slot' });
    expect(await db.run.count({ where: { projectId: project.id } })).toBe(0);
    expect((await db.prompt.findUniqueOrThrow({ where: { id: index.id } })).status).toBe("pending");

    const started = await runTick(project.id, clock(lastSpawnAt, 11_000, 11_000));
    expect(started.skipped ? null : started.decision).toMatchObject({ kind: "blocked_planner", message: 'Campaign "Notes": drift check at 50 %' });
    expect((await db.run.findMany({ where: { projectId: project.id } })).map((r) => [r.kind, r.campaignId])).toEqual([["reflector", campaign.id]]);
  });

  it("holds the loop while another prompt's run fills the only slot", async () => {
    const { project, lastSpawnAt } = await halfDoneCampaign();
    const db = getDb();
    const other = await addPrompt(project.id, { number: 3, title: "other work", body: "z" });
    await db.prompt.update({ where: { id: other.id }, data: { status: "in_progress" } });
    const profile = await db.agentProfile.findFirstOrThrow({ where: { team: { projects: { some: { id: project.id } } } } });
    await db.run.create({ data: { projectId: project.id, promptId: other.id, kind: "executor", status: "running", agentProfileId: profile.id, adapter: "demo" } });
    await addPrompt(project.id, { number: 4, title: "more work", body: "w" });
    const held = await runTick(project.id, clock(lastSpawnAt, 20_000, 20_000));
    expect(held.skipped ? null : held.decision).toMatchObject({ kind: "blocked_planner", message: 'Campaign "Notes": the drift check at 50 % waits for a free slot' });
    expect(await db.run.count({ where: { projectId: project.id } })).toBe(1);
  });
});

describe("an architect due to re-plan", () => {
  it("holds the loop while the cooldown refuses it: other waiting work does not take the slot first", async () => {
    const { project, campaign, index, lastSpawnAt } = await halfDoneCampaign();
    const db = getDb();
    await db.campaign.update({ where: { id: campaign.id }, data: { phase: "planning" } });
    await db.prompt.update({ where: { id: index.id }, data: { status: "cancelled" } });
    await addPrompt(project.id, { number: 3, title: "other work", body: "z" });
    const held = await runTick(project.id, clock(lastSpawnAt, 9_500, 10_500));
    expect(held.skipped ? null : held.decision).toMatchObject({ kind: "blocked_planner", message: 'Campaign "Notes": the architect waits for a free slot' });
    expect(await db.run.count({ where: { projectId: project.id } })).toBe(0);

    const started = await runTick(project.id, clock(lastSpawnAt, 11_000, 11_000));
    expect(started.skipped ? null : started.decision).toMatchObject({ kind: "blocked_planner", message: 'Campaign "Notes": architect run queued' });
    expect((await db.run.findMany({ where: { projectId: project.id } })).map((r) => r.kind)).toEqual(["architect"]);
  });
});

describe("an answer handled without a notice", () => {
  it.each([
    ["a failed architect (its backoff)", "planning", "architect", "failed", null],
    ["a verdict of aligned", "executing", "reflector", "succeeded", '{"aligned": true, "reason": "on track"}'],
  ] as const)("%s is announced to the campaign's page", async (_, phase, kind, status, summary) => {
    const { project, campaign, lastSpawnAt } = await halfDoneCampaign();
    const db = getDb();
    await db.campaign.update({ where: { id: campaign.id }, data: { phase, milestones: [25, 50] } });
    const profile = await db.agentProfile.findFirstOrThrow({ where: { team: { projects: { some: { id: project.id } } } } });
    await db.run.create({ data: { projectId: project.id, campaignId: campaign.id, kind, status, summary, agentProfileId: profile.id, adapter: "demo", finishedAt: new Date() } });
    await runTick(project.id, clock(lastSpawnAt, 5_000, 5_000));
    expect((await db.campaignEvent.findMany({ where: { campaignId: campaign.id } })).map((e) => e.kind)).toEqual([kind === "architect" ? "architect_failed" : "aligned"]);
    expect((await announced(project.teamId)).filter((e) => e.type === "campaignChange" && e.campaignId === campaign.id)).toHaveLength(1);
  });
});
