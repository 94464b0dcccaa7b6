// The campaign step's holds and answers: a drift check or architect the limits refuse holds the
// prompt loop (seed 002's check is mandatory before the next task, so the loop must not hand the
// freed slot to that task in the same tick, when its own clock reading is a moment later); a
// drift check whose run fails runs again; quiet answers still reach the campaign's page.
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { addPrompt } from "./helpers/fixtures";
import { announced, emptyQueues } from "./helpers/runs";
import { clock, halfDoneCampaign } from "./helpers/campaign";

beforeEach(emptyQueues);

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
    const { project, profile, lastSpawnAt } = await halfDoneCampaign();
    const db = getDb();
    const other = await addPrompt(project.id, { number: 3, title: "other work", body: "z" });
    await db.prompt.update({ where: { id: other.id }, data: { status: "in_progress" } });
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
    const { project, campaign, lastSpawnAt, endedRun } = await halfDoneCampaign();
    const db = getDb();
    await db.campaign.update({ where: { id: campaign.id }, data: { phase, milestones: [25, 50] } });
    await endedRun({ kind, status, summary });
    await runTick(project.id, clock(lastSpawnAt, 5_000, 5_000));
    expect((await db.campaignEvent.findMany({ where: { campaignId: campaign.id } })).map((e) => e.kind)).toEqual([kind === "architect" ? "architect_failed" : "aligned"]);
    expect((await announced(project.teamId)).filter((e) => e.type === "campaignChange" && e.campaignId === campaign.id)).toHaveLength(1);
  });
});

describe("a drift check whose run fails", () => {
  async function failedCheck(status: "failed" | "cancelled", driftFailures = 0) {
    const fixture = await halfDoneCampaign();
    const db = getDb();
    await db.campaign.update({ where: { id: fixture.campaign.id }, data: { milestones: [25, 50], driftFailures } });
    await fixture.endedRun({ kind: "reflector", status, error: status === "failed" ? "agent exited 1" : null });
    const result = await runTick(fixture.project.id, clock(fixture.lastSpawnAt, 20_000, 20_000));
    const after = await db.campaign.findUniqueOrThrow({ where: { id: fixture.campaign.id } });
    const events = (await db.campaignEvent.findMany({ where: { campaignId: fixture.campaign.id }, orderBy: { createdAt: "asc" } })).map((e) => [e.kind, e.message]);
    const runs = (await db.run.findMany({ where: { projectId: fixture.project.id }, orderBy: { queuedAt: "asc" } })).map((r) => [r.kind, r.status]);
    return { decision: result.skipped ? null : result.decision, after, events, runs };
  }

  it("runs again at once and holds the loop: the next task waits for a verdict", async () => {
    const { decision, after, events, runs } = await failedCheck("failed");
    expect(events).toEqual([
      ["reflector_failed", "Drift check did not finish: agent exited 1; it runs again (1 of 3 runs failed)"],
      ["milestone", "Milestone 50 %: 1 of 2 tasks done; drift check queued again (1 failed)"],
    ]);
    expect(runs).toEqual([["reflector", "failed"], ["reflector", "queued"]]);
    expect(decision).toMatchObject({ kind: "blocked_planner", message: 'Campaign "Notes": drift check at 50 %' });
    expect(after).toMatchObject({ driftFailures: 1, milestones: [25, 50] });
  });

  it("gives up after its third failed run, says so, and the work goes on", async () => {
    const { decision, after, events, runs } = await failedCheck("failed", 2);
    expect(events).toEqual([["reflector_failed", "Drift check did not finish: agent exited 1; given up after 3 failed runs, the work goes on"]]);
    expect(runs).toEqual([["reflector", "failed"], ["executor", "queued"]]);
    expect(decision).toMatchObject({ kind: "spawn_executor" });
    expect(after).toMatchObject({ driftFailures: 0, milestones: [25, 50] });
  });

  it("a person's cancel skips it", async () => {
    const { events, runs, after } = await failedCheck("cancelled");
    expect(events).toEqual([["reflector_failed", "Drift check did not finish: cancelled"]]);
    expect(runs.map(([kind]) => kind)).toEqual(["reflector", "executor"]);
    expect(after.driftFailures).toBe(0);
  });

  it("a verdict after a failed run starts the count again", async () => {
    const { project, campaign, lastSpawnAt, endedRun } = await halfDoneCampaign();
    const db = getDb();
    await db.campaign.update({ where: { id: campaign.id }, data: { milestones: [25, 50], driftFailures: 2 } });
    await endedRun({ kind: "reflector", status: "succeeded", summary: '{"aligned": true, "reason": "fine"}' });
    await runTick(project.id, clock(lastSpawnAt, 20_000, 20_000));
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).driftFailures).toBe(0);
  });

  it("a new plan starts the count again: a person's re-plan while a check was being retried leaves no failures behind", async () => {
    const { project, campaign, lastSpawnAt, endedRun } = await halfDoneCampaign();
    const db = getDb();
    await db.campaign.update({ where: { id: campaign.id }, data: { phase: "planning", milestones: [25], driftFailures: 2 } });
    await endedRun({ kind: "architect", status: "succeeded", summary: JSON.stringify({ tasks: [{ id: "again", description: "Write the notes again" }] }) });
    await runTick(project.id, clock(lastSpawnAt, 20_000, 20_000));
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({ phase: "executing", planVersion: 2, driftFailures: 0, milestones: [] });
  });
});

describe("a campaign's run the budget refuses", () => {
  it("holds the loop with the budget's reason, queues nothing, and the tick ends cleanly", async () => {
    const { project, campaign, lastSpawnAt } = await halfDoneCampaign();
    const db = getDb();
    await db.projectSettings.update({ where: { projectId: project.id }, data: { dailyBudgetUsd: 1 } });
    // A lead's turn holds the whole daily budget while it runs.
    await db.run.create({ data: { projectId: project.id, kind: "lead", status: "running", adapter: "demo", reservedUsd: 1, leaseExpiresAt: new Date(Date.now() + 60_000) } });
    const result = await runTick(project.id, clock(lastSpawnAt, 20_000, 20_000));
    const waiting = "waiting for budget: running runs hold $1.00 of the project's daily budget of $1.00, $0.00 is spent";
    expect(result.skipped ? null : result.decision).toEqual({ kind: "blocked_planner", message: `Campaign "Notes": the drift check at 50 % is held: ${waiting}` });
    expect((await db.run.findMany({ where: { projectId: project.id } })).map((r) => r.kind)).toEqual(["lead"]);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).milestones).toEqual([]);
    expect((await db.loopState.findUniqueOrThrow({ where: { projectId: project.id } })).tickLockedBy).toBeNull();
  });
});
