// The campaign step's answers and holds, case by case: which runs are answers and in what order,
// what a late or failed answer changes (and what it leaves alone), the breaker's re-plan, and
// what the loop hears while a campaign holds it.
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { MAX_REPLANS } from "@/lib/campaigns/state";
import { addPrompt } from "./helpers/fixtures";
import { activity, announced, emptyQueues } from "./helpers/runs";
import { clock, halfDoneCampaign } from "./helpers/campaign";

beforeEach(emptyQueues);

const plan = JSON.stringify({ tasks: [{ id: "again", description: "Write the notes again" }] });

type Fixture = Awaited<ReturnType<typeof halfDoneCampaign>>;

/** One tick 20 s after the last spawn (past the cooldown); the decision and what changed. */
async function tick(f: Fixture, at = 20_000) {
  const db = getDb();
  const result = await runTick(f.project.id, clock(f.lastSpawnAt, at, at));
  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } });
  const events = (await db.campaignEvent.findMany({ where: { campaignId: f.campaign.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((e) => [e.kind, e.message]);
  const runs = (await db.run.findMany({ where: { projectId: f.project.id }, orderBy: { queuedAt: "asc" } })).map((r) => [r.kind, r.status]);
  const notices = (await activity(f.project.id)).filter((a) => a.type === "campaignChange").map((a) => a.message);
  return { decision: result.skipped ? null : result.decision, campaign, events, runs, notices };
}

const inPhase = (f: Fixture, data: { phase?: "planning" | "executing"; failures?: number; milestones?: number[]; replans?: number; planAfter?: Date }) =>
  getDb().campaign.update({ where: { id: f.campaign.id }, data });

describe("the answers", () => {
  it("are the ended architect and reflector runs, handled once each in the order they finished", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { phase: "planning" });
    const now = Date.now();
    // Stored in the other order than they finished; a task's run and a live check are no answers.
    await f.endedRun({ kind: "architect", status: "failed", error: "agent exited 1", finishedAt: new Date(now) });
    await f.endedRun({ kind: "architect", status: "succeeded", summary: null, finishedAt: new Date(now - 5_000) });
    await f.endedRun({ kind: "executor", status: "succeeded", summary: "done", finishedAt: new Date(now - 10_000) });
    await getDb().run.create({ data: { projectId: f.project.id, campaignId: f.campaign.id, agentProfileId: f.profile.id, adapter: "demo", kind: "reflector", status: "running" } });
    const first = await tick(f);
    expect(first.events).toEqual([
      ["architect_failed", "Architect run failed: the plan is not valid JSON: Unexpected end of JSON input"],
      ["architect_failed", "Architect run failed: agent exited 1"],
    ]);
    expect(first.campaign.failures).toBe(2);
    // Nothing is handled twice.
    const second = await tick(f);
    expect(second.events).toEqual(first.events);
    expect(second.campaign.failures).toBe(2);
  });

  it("a failed architect run's plan is not applied: the run failed", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { phase: "planning" });
    await f.endedRun({ kind: "architect", status: "timed_out", summary: plan, error: "exceeded the maximum duration of 60000 ms" });
    const { campaign, events, notices } = await tick(f);
    expect(campaign).toMatchObject({ phase: "planning", planVersion: 1, failures: 1 });
    expect(events).toEqual([["architect_failed", "Architect run failed: exceeded the maximum duration of 60000 ms"]]);
    expect(notices).toEqual([]);
  });

  it("a plan that arrives while the campaign executes a plan is kept out of it, quietly", async () => {
    const f = await halfDoneCampaign();
    await f.endedRun({ kind: "architect", status: "succeeded", summary: plan });
    const { campaign, events, notices } = await tick(f);
    expect(campaign).toMatchObject({ phase: "executing", planVersion: 1, failures: 0 });
    expect(events[0]).toEqual(["plan_ignored", "A plan arrived while the campaign was executing; it was not applied"]);
    expect(await getDb().prompt.count({ where: { campaignId: f.campaign.id } })).toBe(2);
    expect(notices).toEqual([]);
  });

  it("the architect's fourth failure in a row fails the campaign and says so; while executing it does not", async () => {
    const planning = await halfDoneCampaign();
    await inPhase(planning, { phase: "planning", failures: 3 });
    await planning.endedRun({ kind: "architect", status: "failed", error: "agent exited 1" });
    const failed = await tick(planning);
    expect(failed.campaign).toMatchObject({ phase: "failed", failures: 4 });
    expect(failed.events.slice(1)).toEqual([["failed", "The architect failed 4 times in a row"]]);
    expect(failed.notices).toEqual(['Campaign "Notes" failed: the architect failed 4 times in a row']);

    const executing = await halfDoneCampaign();
    await inPhase(executing, { failures: 3 });
    await executing.endedRun({ kind: "architect", status: "failed", error: "agent exited 1" });
    const after = await tick(executing);
    expect(after.campaign).toMatchObject({ phase: "executing", failures: 4 });
    expect(after.notices).toEqual([]);
  });
});

describe("a drift check's answer", () => {
  it("that failed after a person sent the campaign back to planning is owed no more: nothing is retried", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { phase: "planning", milestones: [25, 50] });
    await f.endedRun({ kind: "reflector", status: "failed", error: "agent exited 1" });
    const { campaign, events, notices } = await tick(f);
    expect(events).toEqual([["reflector_failed", "Drift check did not finish: agent exited 1"]]);
    expect(campaign).toMatchObject({ phase: "planning", driftFailures: 0, milestones: [25, 50] });
    expect(notices).toEqual([]);
  });

  it("that failed for a plan applied since (no milestone reached yet) is owed no more either", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { milestones: [] });
    await f.endedRun({ kind: "reflector", status: "failed", error: "agent exited 1" });
    const { campaign, events } = await tick(f, 5_000);
    expect(events[0]).toEqual(["reflector_failed", "Drift check did not finish: agent exited 1"]);
    expect(campaign.driftFailures).toBe(0);
  });

  it("that failed and is held by the cooldown takes back only its own milestone", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { milestones: [25, 50] });
    await f.endedRun({ kind: "reflector", status: "failed", error: "agent exited with 1: Done. Exiting with code 1." });
    const { decision, campaign, runs, events } = await tick(f, 5_000);
    expect(events).toEqual([["reflector_failed", "Drift check did not finish: agent exited with 1: Done. Exiting with code 1; it runs again (1 of 3 runs failed)"]]);
    expect(decision).toMatchObject({ kind: "blocked_planner", message: 'Campaign "Notes": the drift check at 50 % waits for a free slot' });
    expect(campaign).toMatchObject({ driftFailures: 1, milestones: [25] });
    expect(runs).toEqual([["reflector", "failed"]]);
  });

  it("of aligned without a reason says just that", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { milestones: [25, 50] });
    await f.endedRun({ kind: "reflector", status: "succeeded", summary: '{"aligned": true}' });
    const { events, notices } = await tick(f, 5_000);
    expect(events).toEqual([["aligned", "Drift check: aligned"]]);
    expect(notices).toEqual([]);
  });

  it("of drift after a person sent the campaign back to planning is kept, not acted on", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { phase: "planning", milestones: [25, 50] });
    await f.endedRun({ kind: "reflector", status: "succeeded", summary: '{"aligned": false, "reason": "the notes describe another project"}' });
    const { campaign, events, notices } = await tick(f, 5_000);
    expect(events).toEqual([["verdict_ignored", "A drift verdict arrived while the campaign was planning; it was not acted on: the notes describe another project"]]);
    expect(campaign).toMatchObject({ phase: "planning", replans: 0, failureLog: null });
    expect(notices).toEqual([]);
  });

  it("of drift without a reason says that none was given, re-planning or kept", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { milestones: [25, 50] });
    await f.endedRun({ kind: "reflector", status: "succeeded", summary: '{"aligned": false, "reason": "   "}' });
    const { campaign } = await tick(f, 5_000);
    expect(campaign).toMatchObject({ phase: "planning", failureLog: "DRIFT DETECTED: the reflector gave no reason" });
    await f.endedRun({ kind: "reflector", status: "succeeded", summary: '{"aligned": false}' });
    const { events } = await tick(f, 10_000);
    expect(events.at(-1)).toEqual(["verdict_ignored", "A drift verdict arrived while the campaign was planning; it was not acted on: the reflector gave no reason"]);
  });

  it("of drift re-plans, is announced once, and the fifth re-plan in a row is still one", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { milestones: [25, 50], replans: MAX_REPLANS - 1 });
    await f.endedRun({ kind: "reflector", status: "succeeded", summary: '{"aligned": false, "reason": "off course"}' });
    const { campaign, notices } = await tick(f, 5_000);
    expect(campaign).toMatchObject({ phase: "planning", replans: MAX_REPLANS, failureLog: "DRIFT DETECTED: off course" });
    expect(notices).toEqual(['Campaign "Notes" drifted from its goal; re-planning. DRIFT DETECTED: off course']);
    expect((await announced(f.project.teamId)).filter((e) => e.type === "campaignChange" && e.campaignId === f.campaign.id)).toHaveLength(1);
  });

  it("of drift past the re-plans allowed fails the campaign with the reason, its first line cut for the history", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { milestones: [25, 50], replans: MAX_REPLANS, planAfter: new Date() });
    const long = "x".repeat(1_000);
    await f.endedRun({ kind: "reflector", status: "succeeded", summary: JSON.stringify({ aligned: false, reason: long }) });
    const { campaign, events, notices } = await tick(f, 5_000);
    expect(campaign).toMatchObject({ phase: "failed", failureLog: `DRIFT DETECTED: ${long}`, planAfter: null });
    const message = `Gave up after ${MAX_REPLANS} re-plans in a row without progress; the last reason: DRIFT DETECTED: ${long.slice(0, 384)}`;
    expect(events.at(-1)).toEqual(["failed", message]);
    expect(notices).toEqual([`Campaign "Notes" failed: ${message}`]);
  });
});

describe("the breaker", () => {
  async function brokenTasks(replans = 0) {
    const f = await halfDoneCampaign();
    const db = getDb();
    await inPhase(f, { replans });
    // Two tasks failed all their attempts; the one that failed first (stored last) is the reason.
    await db.prompt.update({ where: { id: f.index.id }, data: { status: "failed", completedAt: new Date(), failureLog: "index broke" } });
    const extra = await addPrompt(f.project.id, { number: 3, title: "extra", body: "z" });
    await db.prompt.update({ where: { id: extra.id }, data: { campaignId: f.campaign.id, campaignPlan: 1, taskId: "extra", status: "failed", completedAt: new Date(Date.now() - 3_600_000) } });
    return f;
  }

  it("sends the first failed task back to the architect, whose backoff holds the loop from that tick", async () => {
    const f = await brokenTasks();
    const { decision, campaign, runs, notices } = await tick(f);
    expect(campaign).toMatchObject({ phase: "planning", tasksFailed: 1, replans: 1, failureLog: "Task extra failed after 4 attempts:\n(no log)" });
    expect(notices).toEqual(['Campaign "Notes": task extra failed 4 times; re-planning']);
    expect(decision).toMatchObject({ kind: "blocked_planner", message: `Campaign "Notes": re-planning backs off until ${campaign.planAfter!.toISOString()}` });
    expect(runs).toEqual([]);
  });

  it("past the re-plans allowed fails the campaign and starts no architect", async () => {
    const f = await brokenTasks(MAX_REPLANS);
    // No task of this plan completed: no progress, the count goes on.
    await getDb().prompt.updateMany({ where: { campaignId: f.campaign.id, taskId: "notes" }, data: { campaignPlan: 0 } });
    const { campaign, runs, notices } = await tick(f);
    expect(campaign.phase).toBe("failed");
    expect(notices).toEqual([`Campaign "Notes" failed: Gave up after ${MAX_REPLANS} re-plans in a row without progress; the last reason: Task extra failed after 4 attempts:`]);
    expect(runs).toEqual([]);
  });
});

describe("what holds the loop", () => {
  it("a drift check running: the loop waits for it, and no second check starts", async () => {
    const f = await halfDoneCampaign();
    // Its milestone is not recorded yet: without the running check, one would be due.
    await inPhase(f, { milestones: [25] });
    await getDb().run.create({ data: { projectId: f.project.id, campaignId: f.campaign.id, agentProfileId: f.profile.id, adapter: "demo", kind: "reflector", status: "running" } });
    const { decision, runs, events } = await tick(f);
    expect(decision).toMatchObject({ kind: "blocked_planner", message: 'Campaign "Notes": drift check running' });
    expect(runs).toEqual([["reflector", "running"]]);
    expect(events).toEqual([]);
  });

  it("an architect running: the loop waits for it, and no second architect starts", async () => {
    const f = await halfDoneCampaign();
    await inPhase(f, { phase: "planning" });
    await getDb().run.create({ data: { projectId: f.project.id, campaignId: f.campaign.id, agentProfileId: f.profile.id, adapter: "demo", kind: "architect", status: "starting" } });
    const { decision, runs } = await tick(f);
    expect(decision).toMatchObject({ kind: "blocked_planner", message: 'Campaign "Notes": the architect is planning' });
    expect(runs).toEqual([["architect", "starting"]]);
  });

  it("the first milestone's check: queued, said plainly, recorded and announced with its run", async () => {
    const f = await halfDoneCampaign();
    const { decision, runs, events } = await tick(f);
    expect(decision).toMatchObject({ kind: "blocked_planner", message: 'Campaign "Notes": drift check at 50 %' });
    expect(events).toEqual([["milestone", "Milestone 50 %: 1 of 2 tasks done; drift check queued"]]);
    const run = await getDb().run.findFirstOrThrow({ where: { projectId: f.project.id } });
    expect(runs).toEqual([["reflector", "queued"]]);
    expect((await activity(f.project.id)).filter((a) => a.type === "taskAssigned")).toEqual([
      { type: "taskAssigned", message: `Campaign "Notes": reflector run ${run.id} queued`, data: { runId: run.id } },
    ]);
    expect((await announced(f.project.teamId)).filter((e) => e.type === "campaignChange")).toContainEqual({ type: "campaignChange", projectId: f.project.id, runId: run.id });
  });

  it("no agent profile to check with: the milestone waits, and the tick goes on", async () => {
    const f = await halfDoneCampaign();
    await getDb().projectSettings.update({ where: { projectId: f.project.id }, data: { executorProfileId: null, plannerProfileId: null } });
    const { decision, events, runs } = await tick(f);
    expect(decision).not.toBeNull();
    expect(events).toEqual([]);
    expect(runs).toEqual([]);
  });

  it("two open campaigns: the older one's hold is the loop's; a closed campaign's ended run is no longer read", async () => {
    const f = await halfDoneCampaign();
    const db = getDb();
    await inPhase(f, { phase: "planning" });
    // Two campaigns planning: one's architect runs, the other's waits for the slot it holds.
    const other = await db.campaign.create({ data: { projectId: f.project.id, title: "Other", goal: "Plan", phase: "planning" } });
    await db.run.create({ data: { projectId: f.project.id, campaignId: other.id, agentProfileId: f.profile.id, adapter: "demo", kind: "architect", status: "running" } });
    const closed = await db.campaign.create({ data: { projectId: f.project.id, title: "Closed", goal: "Done", phase: "completed" } });
    await db.run.create({ data: { projectId: f.project.id, campaignId: closed.id, agentProfileId: f.profile.id, adapter: "demo", kind: "reflector", status: "failed", finishedAt: new Date() } });
    // The one stored last is dated first, so the order asked for is not the order stored.
    const stored = await db.$queryRaw<{ id: string }[]>`SELECT id FROM "Campaign" WHERE id IN (${f.campaign.id}, ${other.id}) ORDER BY ctid`;
    await db.campaign.update({ where: { id: stored[1].id }, data: { createdAt: new Date(Date.now() - 3_600_000) } });
    const { decision } = await tick(f);
    expect(decision).toMatchObject({
      kind: "blocked_planner",
      message: stored[1].id === other.id ? 'Campaign "Other": the architect is planning' : 'Campaign "Notes": the architect waits for a free slot',
    });
    expect(await db.campaignEvent.count({ where: { campaignId: closed.id } })).toBe(0);
  });
});

describe("a campaign run Postgres refuses for a reason other than the budget", () => {
  it("fails the tick with that error rather than holding the loop as if for the budget", async () => {
    const f = await halfDoneCampaign();
    const db = getDb();
    // A real refusal from Postgres for this project's reflector runs only.
    await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_reflector_${f.project.id}() RETURNS trigger AS $$
      BEGIN IF NEW."projectId" = '${f.project.id}' AND NEW."kind" = 'reflector' THEN RAISE EXCEPTION 'could not extend file: No space left on device'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER refuse_reflector_${f.project.id} BEFORE INSERT ON "Run" FOR EACH ROW EXECUTE FUNCTION refuse_reflector_${f.project.id}()`);
    try {
      await expect(runTick(f.project.id, clock(f.lastSpawnAt, 20_000, 20_000))).rejects.toThrow(/No space left on device/);
      expect(await db.campaignEvent.count({ where: { campaignId: f.campaign.id } })).toBe(0);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER refuse_reflector_${f.project.id} ON "Run"`);
      await db.$executeRawUnsafe(`DROP FUNCTION refuse_reflector_${f.project.id}()`);
    }
  });
});
