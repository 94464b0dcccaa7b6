// What a tick does with its decision, case by case: the snapshot it decides on (files imported,
// a branch switched, live and merging prompts, executor slots), a campaign's step first, a
// remote run's wake-up, a budget's refusal, a planner's backoff figures, stopping for good.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { getDb, getPool } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { QUEUE_RAN_DRY } from "@/lib/activity/change";
import { getQueue, tickSchedulerId, upsertTickScheduler } from "@/lib/queues";
import { runnerWakeChannel, wakeRunners } from "@/lib/redis/runner-wake";
import { addPrompt, waitUntil } from "./helpers/fixtures";
import { activity, createBareProject, emptyQueues, loopStateOf, queuedJobs } from "./helpers/runs";

const now = new Date("2026-11-23T12:00:00.000Z");
const clock = () => now;

async function runningProject(settings: Record<string, unknown> = {}) {
  const fixture = await createBareProject();
  await getDb().loopState.update({ where: { projectId: fixture.project.id }, data: { mode: "running" } });
  await getDb().projectSettings.update({ where: { projectId: fixture.project.id }, data: { spawnCooldownMs: 0, ...settings } });
  return fixture;
}

const runsOf = (projectId: string) => getDb().run.findMany({ where: { projectId }, orderBy: { queuedAt: "asc" } });
const liveRunFor = (projectId: string, promptId: string | null, kind: "executor" | "reviewer_fix" = "executor") =>
  getDb().run.create({ data: { projectId, promptId, kind, status: "running", adapter: "demo", leaseExpiresAt: new Date(Date.now() + 60_000) } });

beforeEach(emptyQueues);

describe("a tick's snapshot", () => {
  it("decides on prompt files it imported in the same tick (and keeps the real clock without one given)", async () => {
    const { project } = await runningProject();
    const repo = mkdtempSync(join(tmpdir(), "rm-tick-"));
    mkdirSync(join(repo, ".planning", "main", "prompts"), { recursive: true });
    writeFileSync(join(repo, ".planning", "main", "prompts", "01-a.md"), "---\ntitle: A\n---\nDo it.\n");
    await getDb().project.update({ where: { id: project.id }, data: { repoPath: repo } });
    const before = Date.now();
    expect(await runTick(project.id)).toMatchObject({ skipped: false, decision: { kind: "spawn_executor", promptNumber: 1 } });
    const [run] = await runsOf(project.id);
    expect(run).toMatchObject({ kind: "executor", status: "queued" });
    expect((await loopStateOf(project.id)).lastTickAt!.getTime()).toBeGreaterThanOrEqual(before);
  });

  it("decides on the new branch's prompts when the checked-out branch changed", async () => {
    const { project } = await runningProject();
    const repo = mkdtempSync(join(tmpdir(), "rm-tick-"));
    mkdirSync(join(repo, ".git"));
    writeFileSync(join(repo, ".git", "HEAD"), "ref: refs/heads/feature\n");
    await getDb().project.update({ where: { id: project.id }, data: { repoPath: repo } });
    const prompt = await getDb().prompt.create({ data: { projectId: project.id, planningKey: "feature", number: 1, title: "on feature", body: "" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "spawn_executor", promptId: prompt.id } });
    expect((await runsOf(project.id)).map((r) => r.promptId)).toEqual([prompt.id]);
  });

  it("never claims a prompt that has a live run, and then asks for no burst tick", async () => {
    const { project } = await runningProject({ maxParallel: 3 });
    const busy = await addPrompt(project.id, { number: 1, title: "busy", body: "", priority: 1 });
    const next = await addPrompt(project.id, { number: 2, title: "next", body: "", priority: 3 });
    const done = await addPrompt(project.id, { number: 3, title: "done", body: "" });
    await getDb().prompt.update({ where: { id: done.id }, data: { status: "done" } });
    await liveRunFor(project.id, busy.id);
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "spawn_executor", promptId: next.id } });
    expect((await runsOf(project.id)).filter((r) => r.status === "queued").map((r) => r.promptId)).toEqual([next.id]);
    expect(await queuedJobs("tick")).toEqual([]);
  });

  it("adds a GitHub project's pull-request check every prCheckFrequency ticks", async () => {
    const { project } = await runningProject({ prCheckFrequency: 2 });
    await getDb().project.update({ where: { id: project.id }, data: { repoKind: "github", githubOwner: "o", githubRepo: "r" } });
    await getDb().loopState.update({ where: { projectId: project.id }, data: { tickCount: 1 } });
    const polls = async () => (await getQueue("github").getJobs(["waiting", "delayed", "prioritized"]))
      .filter((j) => "pollProjectId" in j.data && j.data.pollProjectId === project.id).map((j) => j.name);
    await runTick(project.id, clock);
    expect(await polls()).toEqual([]);
    await runTick(project.id, clock);
    expect(await polls()).toEqual(["poll"]);
  });

  it("asks for a burst tick with its reason while a slot is free and another prompt waits", async () => {
    const { project } = await runningProject({ maxParallel: 2 });
    await addPrompt(project.id, { number: 1, title: "one", body: "" });
    await addPrompt(project.id, { number: 2, title: "two", body: "" });
    await runTick(project.id, clock);
    expect(await queuedJobs("tick")).toEqual([[expect.any(String), { projectId: project.id, reason: "another slot is free and a prompt waits" }]]);
  });

  it("holds a prompt whose dependency is merging until the merge lands", async () => {
    const { project } = await runningProject({ maxParallel: 3 });
    const first = await addPrompt(project.id, { number: 1, title: "first", body: "" });
    await addPrompt(project.id, { number: 2, title: "second", body: "", dependencies: [1] });
    await getDb().prompt.update({ where: { id: first.id }, data: { status: "in_progress" } });
    await getDb().run.create({ data: { projectId: project.id, promptId: first.id, kind: "executor", status: "succeeded", mergeStatus: "pending", adapter: "demo" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "awaiting_merge", promptNumber: 2 } });
    expect((await runsOf(project.id)).filter((r) => r.status === "queued")).toEqual([]);
  });

  it("counts only executors against the slots, and with Parallel on a pending merge holds none", async () => {
    const { project } = await runningProject({ parallelEnabled: true, maxParallel: 1 });
    const fixed = await addPrompt(project.id, { number: 1, title: "fixed", body: "" });
    const merged = await addPrompt(project.id, { number: 2, title: "merging", body: "" });
    const next = await addPrompt(project.id, { number: 3, title: "next", body: "" });
    await getDb().prompt.updateMany({ where: { id: { in: [fixed.id, merged.id] } }, data: { status: "in_progress" } });
    await liveRunFor(project.id, fixed.id, "reviewer_fix");
    await getDb().run.create({ data: { projectId: project.id, promptId: merged.id, kind: "executor", status: "succeeded", mergeStatus: "pending", adapter: "demo" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "spawn_executor", promptId: next.id } });
    expect((await runsOf(project.id)).filter((r) => r.status === "queued").map((r) => r.promptId)).toEqual([next.id]);
  });

  it("spawns an approved prompt", async () => {
    const { project } = await runningProject();
    const approved = await addPrompt(project.id, { number: 1, title: "approved", body: "" });
    await getDb().prompt.update({ where: { id: approved.id }, data: { approval: "approved" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "spawn_executor", promptId: approved.id } });
  });
});

describe("what a tick does with its decision", () => {
  it("queues a remote run for the runners, not the spawn queue, and says so", async () => {
    const { project } = await runningProject({ useRunners: true });
    const prompt = await addPrompt(project.id, { number: 1, title: "remote", body: "" });
    await runTick(project.id, clock);
    const [run] = await runsOf(project.id);
    expect(run).toMatchObject({ promptId: prompt.id, remote: true, status: "queued" });
    expect(await queuedJobs("spawn")).toEqual([]);
    expect((await activity(project.id))[0]).toEqual({
      type: "taskAssigned", message: `#1 remote: run ${run.id} queued for a remote runner`, data: { runId: run.id, promptId: prompt.id },
    });
  });

  it("queues a pinned prompt's run for its agent, not the spawn queue, in a project not on runners", async () => {
    const { project, team } = await runningProject();
    const agent = await getDb().agent.create({ data: { teamId: team.id, name: "backend", lastSeenAt: new Date() } });
    const prompt = await addPrompt(project.id, { number: 1, title: "pinned", body: "" });
    await getDb().prompt.update({ where: { id: prompt.id }, data: { pinnedAgentId: agent.id } });
    await runTick(project.id, clock);
    const [run] = await runsOf(project.id);
    expect(run).toMatchObject({ promptId: prompt.id, remote: true, remoteAgentId: agent.id, status: "queued" });
    expect(await queuedJobs("spawn")).toEqual([]);
    expect((await activity(project.id))[0]).toEqual({
      type: "taskAssigned", message: `#1 pinned: run ${run.id} queued for a remote runner`, data: { runId: run.id, promptId: prompt.id },
    });
  });

  it("releases the pins of an agent that is gone: the pending prompt runs here, a queued run moves to the spawn queue, each said once", async () => {
    const { project, team } = await runningProject({ maxParallel: 2 });
    const gone = await getDb().agent.create({ data: { teamId: team.id, name: "gone", status: "offline", lastSeenAt: new Date() } });
    const here = await getDb().agent.create({ data: { teamId: team.id, name: "here", lastSeenAt: new Date() } });
    const waiting = await addPrompt(project.id, { number: 1, title: "waiting", body: "" });
    const queued = await addPrompt(project.id, { number: 2, title: "queued", body: "" });
    const kept = await addPrompt(project.id, { number: 3, title: "kept", body: "", priority: 4 });
    await getDb().prompt.updateMany({ where: { id: { in: [waiting.id, queued.id] } }, data: { pinnedAgentId: gone.id } });
    await getDb().prompt.update({ where: { id: kept.id }, data: { pinnedAgentId: here.id } });
    await getDb().prompt.update({ where: { id: queued.id }, data: { status: "in_progress" } });
    const moved = await getDb().run.create({ data: { projectId: project.id, promptId: queued.id, kind: "executor", status: "queued", remote: true, remoteAgentId: gone.id, adapter: "demo" } });

    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "spawn_executor", promptId: waiting.id } });
    const pins = await getDb().prompt.findMany({ where: { projectId: project.id }, orderBy: { number: "asc" }, select: { pinnedAgentId: true } });
    expect(pins.map((p) => p.pinnedAgentId)).toEqual([null, null, here.id]);
    expect(await getDb().run.findUniqueOrThrow({ where: { id: moved.id } })).toMatchObject({ remote: false, remoteAgentId: null, status: "queued" });
    const started = (await runsOf(project.id)).find((r) => r.promptId === waiting.id)!;
    expect(started).toMatchObject({ remote: false, remoteAgentId: null });
    const spawns = (await queuedJobs("spawn")).map(([, d]) => (d as { runId: string }).runId);
    expect(spawns.sort()).toEqual([moved.id, started.id].sort());
    const said = (await activity(project.id)).map((a) => a.message).filter((m) => m.includes("no longer pinned"));
    expect(said.sort()).toEqual([
      "#1 waiting: gone is gone, so it is no longer pinned to it; any agent of the project takes it",
      "#2 queued: gone is gone, so it is no longer pinned to it; any agent of the project takes it",
    ]);
    await runTick(project.id, clock);
    expect((await activity(project.id)).filter((a) => a.message.includes("no longer pinned"))).toHaveLength(2);
  });

  it("wakes the team's runners when a released pin's queued run goes to the runner pool, and not when it goes to the spawn queue", async () => {
    const sub = new Redis(process.env.REDIS_URL!);
    const heard: string[] = [];
    sub.on("message", (_channel: string, teamId: string) => heard.push(teamId));
    await sub.subscribe(runnerWakeChannel());
    try {
      const pool = await runningProject({ useRunners: true });
      const local = await runningProject();
      const moved: Record<string, string> = {};
      for (const { project, team } of [pool, local]) {
        const gone = await getDb().agent.create({ data: { teamId: team.id, name: "gone", status: "offline", lastSeenAt: new Date() } });
        const prompt = await addPrompt(project.id, { number: 1, title: "queued", body: "" });
        await getDb().prompt.update({ where: { id: prompt.id }, data: { pinnedAgentId: gone.id, status: "in_progress" } });
        const run = await getDb().run.create({ data: { projectId: project.id, promptId: prompt.id, kind: "executor", status: "queued", remote: true, remoteAgentId: gone.id, adapter: "demo" } });
        moved[project.id] = run.id;
        expect(await runTick(project.id, clock)).toMatchObject({ skipped: false, decision: { kind: "wait", message: "Waiting for 1 prompt in progress" } });
        expect((await activity(project.id)).filter((a) => a.type === "activity")).toEqual([{
          type: "activity", message: "#1 queued: gone is gone, so it is no longer pinned to it; any agent of the project takes it", data: { promptId: prompt.id },
        }]);
      }
      expect(await getDb().run.findUniqueOrThrow({ where: { id: moved[pool.project.id] } })).toMatchObject({ remote: true, remoteAgentId: null, status: "queued" });
      expect(await queuedJobs("spawn")).toEqual([[moved[local.project.id], { runId: moved[local.project.id] }]]);
      // Wake-ups arrive in the order they were published: once the marker is heard, every earlier one is too.
      const marker = `marker-${pool.team.id}`;
      await wakeRunners(marker);
      await waitUntil("the marker wake-up", async () => heard.includes(marker));
      expect(heard.filter((id) => [pool.team.id, local.team.id, marker].includes(id))).toEqual([pool.team.id, marker]);
    } finally {
      await sub.quit();
    }
  });

  it("leaves a lost pin it cannot see (a prompt of another planning key) while nothing in sight lost its agent", async () => {
    const { project, team } = await runningProject();
    const gone = await getDb().agent.create({ data: { teamId: team.id, name: "gone", status: "offline", lastSeenAt: new Date() } });
    const elsewhere = await addPrompt(project.id, { number: 1, title: "elsewhere", body: "" });
    await getDb().prompt.update({ where: { id: elsewhere.id }, data: { planningKey: "another-branch", pinnedAgentId: gone.id } });
    expect(await runTick(project.id, clock)).toMatchObject({ skipped: false, decision: { kind: "all_done" } });
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: elsewhere.id } })).pinnedAgentId).toBe(gone.id);
    expect((await activity(project.id)).filter((a) => a.type === "activity")).toEqual([]);
  });

  it("backs its safety-net tick off only after a scheduled tick with nothing to do, and moves the schedule only when the level changes", async () => {
    const { project } = await runningProject();
    const period = async () => (await getQueue("tick").getJobScheduler(tickSchedulerId(project.id)))?.every;
    const level = async () => (await loopStateOf(project.id)).tickBackoff;
    // A nudged tick with nothing to do keeps the level (0), so the schedule is not touched: this fixture has none.
    expect(await runTick(project.id, clock)).toMatchObject({ skipped: false, decision: { kind: "all_done" } });
    expect([await level(), await period()]).toEqual([0, undefined]);
    expect(await runTick(project.id, clock, { scheduled: true })).toMatchObject({ skipped: false, decision: { kind: "all_done" } });
    expect([await level(), await period()]).toEqual([1, 10_000]);
    expect(await runTick(project.id, clock, { scheduled: false })).toMatchObject({ skipped: false, decision: { kind: "all_done" } });
    expect([await level(), await period()]).toEqual([0, 5000]);
  });

  it("runs an open campaign's step first with the planner profile, and holds the prompt loop while its architect works", async () => {
    const { project, team } = await runningProject();
    const planner = await getDb().agentProfile.create({ data: { teamId: team.id, name: "planner", adapter: "demo" } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { plannerProfileId: planner.id } });
    await addPrompt(project.id, { number: 1, title: "one", body: "" });
    await getDb().campaign.create({ data: { projectId: project.id, title: "Search", goal: "Add search" } });
    expect(await runTick(project.id, clock)).toEqual({ skipped: false, decision: { kind: "blocked_planner", message: "Campaign \"Search\": architect run queued" } });
    expect((await runsOf(project.id)).map((r) => [r.kind, r.agentProfileId])).toEqual([["architect", planner.id]]);
    expect((await loopStateOf(project.id)).lastStatus).toBe("Campaign \"Search\": architect run queued");
  });

  it("steps an open campaign once when no task landed: a prompt done before the tick is not one that landed", async () => {
    const { project, team } = await runningProject();
    const planner = await getDb().agentProfile.create({ data: { teamId: team.id, name: "planner", adapter: "demo" } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { plannerProfileId: planner.id } });
    const done = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    await getDb().prompt.update({ where: { id: done.id }, data: { status: "done" } });
    await getDb().campaign.create({ data: { projectId: project.id, title: "Search", goal: "Add search" } });
    // A second step would find its architect queued and say "the architect is planning" instead.
    expect(await runTick(project.id, clock)).toEqual({ skipped: false, decision: { kind: "blocked_planner", message: "Campaign \"Search\": architect run queued" } });
    expect((await runsOf(project.id)).map((r) => r.kind)).toEqual(["architect"]);
  });

  it("leaves a campaign alone while the loop is paused", async () => {
    const { project } = await runningProject();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "paused" } });
    await getDb().campaign.create({ data: { projectId: project.id, title: "Search", goal: "Add search" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "idle" } });
    expect(await runsOf(project.id)).toEqual([]);
  });

  it("pauses for a spent budget before it decides, and waits (still running) while running runs hold the rest", async () => {
    const spent = await runningProject({ dailyBudgetUsd: 0 });
    await addPrompt(spent.project.id, { number: 1, title: "one", body: "" });
    expect(await runTick(spent.project.id, clock)).toMatchObject({ decision: { kind: "idle" } });
    expect(await loopStateOf(spent.project.id)).toMatchObject({ mode: "paused" });
    expect(await runsOf(spent.project.id)).toEqual([]);

    // Without a budget the check is skipped: a loop paused for another reason stays paused.
    const unbudgeted = await runningProject();
    await getDb().loopState.update({ where: { projectId: unbudgeted.project.id }, data: { mode: "paused", pauseReason: "paused by its owner" } });
    expect(await runTick(unbudgeted.project.id, clock)).toMatchObject({ decision: { kind: "idle" } });
    expect(await loopStateOf(unbudgeted.project.id)).toMatchObject({ mode: "paused", pauseReason: "paused by its owner" });

    const held = await runningProject({ dailyBudgetUsd: 1, maxParallel: 2 });
    await addPrompt(held.project.id, { number: 1, title: "one", body: "" });
    await addPrompt(held.project.id, { number: 2, title: "two", body: "" });
    await runTick(held.project.id, clock);
    // The first run holds its $1 reservation while it runs.
    await getDb().run.updateMany({ where: { projectId: held.project.id }, data: { status: "running", reservedUsd: 1, leaseExpiresAt: new Date(Date.now() + 60_000) } });
    const waiting = "waiting for budget: running runs hold $1.00 of the project's daily budget of $1.00, $0.00 is spent";
    expect(await runTick(held.project.id, clock)).toMatchObject({ decision: { kind: "spawn_executor", promptNumber: 2 } });
    expect(await loopStateOf(held.project.id)).toMatchObject({ mode: "running", lastStatus: waiting });
    expect((await runsOf(held.project.id)).length).toBe(1);
  });

  it("resets the planner's unproductive count when new pending prompts appear, and keeps it otherwise", async () => {
    const { project } = await runningProject();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { emergentSpawnCount: 3, lastPendingCount: 0 } });
    await runTick(project.id, clock);
    expect((await loopStateOf(project.id)).emergentSpawnCount).toBe(3);
    const done = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    await getDb().prompt.update({ where: { id: done.id }, data: { status: "done" } });
    await runTick(project.id, clock);
    expect((await loopStateOf(project.id)).emergentSpawnCount).toBe(3);
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    await addPrompt(project.id, { number: 2, title: "two", body: "" });
    await runTick(project.id, clock);
    expect((await loopStateOf(project.id)).emergentSpawnCount).toBe(0);
  });

  it("marks a loop it stopped for an empty queue as ran dry, and no other", async () => {
    const other = await createBareProject();
    const { project } = await runningProject();
    const done = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    await getDb().prompt.update({ where: { id: done.id }, data: { status: "done" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "all_done" } });
    expect(await loopStateOf(project.id)).toMatchObject({ mode: "stopped", pauseReason: QUEUE_RAN_DRY });
    expect(await loopStateOf(other.project.id)).toMatchObject({ mode: "stopped", pauseReason: null });
  });

  it("removes the periodic tick when stopping ends with the last agent gone", async () => {
    const { project } = await runningProject();
    await upsertTickScheduler(project.id, 60_000);
    expect(await getQueue("tick").getJobScheduler(tickSchedulerId(project.id))).toMatchObject({ key: tickSchedulerId(project.id) });
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "stopping" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "idle" } });
    expect((await loopStateOf(project.id)).mode).toBe("stopped");
    expect(await getQueue("tick").getJobScheduler(tickSchedulerId(project.id))).toBeUndefined();
  });
});

describe("a tick's edges", () => {
  it("releases its lock when it throws, so the next tick runs", async () => {
    const { project } = await runningProject();
    await addPrompt(project.id, { number: 1, title: "one", body: "" });
    const broken = () => { throw new Error("clock broke"); };
    await expect(runTick(project.id, broken)).rejects.toThrow("clock broke");
    expect(await loopStateOf(project.id)).toMatchObject({ tickLockedUntil: null, tickLockedBy: null, tickCount: 0 });
    expect(await runsOf(project.id)).toEqual([]);
    expect(await runTick(project.id, clock)).toMatchObject({ skipped: false, decision: { kind: "spawn_executor", promptNumber: 1 } });
    expect(await loopStateOf(project.id)).toMatchObject({ tickLockedUntil: null, tickLockedBy: null, tickCount: 1 });
  });

  it("says why when the budget refuses a planner spawn, and queues nothing", async () => {
    const { project, profile } = await runningProject({ plannerEnabled: true, dailyBudgetUsd: 1 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { plannerProfileId: profile.id } });
    // A lead's turn (no executor, no planner) holds the whole daily budget while it runs.
    await getDb().run.create({ data: { projectId: project.id, kind: "lead", status: "running", adapter: "demo", reservedUsd: 1, leaseExpiresAt: new Date(Date.now() + 60_000) } });
    const waiting = "waiting for budget: running runs hold $1.00 of the project's daily budget of $1.00, $0.00 is spent";
    expect(await runTick(project.id, clock)).toMatchObject({ skipped: false, decision: { kind: "spawn_planner" } });
    expect((await runsOf(project.id)).map((r) => r.kind)).toEqual(["lead"]);
    expect(await queuedJobs("spawn")).toEqual([]);
    expect(await loopStateOf(project.id)).toMatchObject({ mode: "running", lastStatus: waiting, plannerLastSpawnAt: null });
    expect((await activity(project.id)).map((a) => [a.type, a.message])).toEqual([["loopStatus", waiting]]);
  });

  it.each([
    ["a prompt", async () => null],
    // A campaign created with its plan (the campaigns API): its tasks are new work as long as it is not paused.
    ["a task of a campaign created meanwhile", async (project: { id: string }) =>
      (await getDb().campaign.create({ data: { projectId: project.id, title: "Search", goal: "Add search", phase: "executing", planVersion: 1, tasksTotal: 1 } })).id],
  ] as const)("starts the loop again when %s arrives while it stops a dry queue", async (_name, campaignOf) => {
    const { project } = await runningProject();
    const done = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    await getDb().prompt.update({ where: { id: done.id }, data: { status: "done" } });
    // Another writer's prompt lands after the tick read its snapshot, before it marked the loop
    // as ran dry: the tick is held at the stop's audit record (a table lock) while it is added.
    const holder = await getPool().connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`LOCK TABLE "AuditEvent" IN SHARE ROW EXCLUSIVE MODE`);
      const tick = runTick(project.id, clock);
      tick.catch(() => {});
      await waitUntil("the tick waits at the stop", async () => {
        const { rows } = await holder.query(
          `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
           WHERE c.relname = 'AuditEvent' AND NOT l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        return rows.length > 0;
      });
      const campaignId = await campaignOf(project);
      await getDb().prompt.create({ data: { projectId: project.id, planningKey: project.planningKey, number: 2, title: "two", body: "", priority: 3, campaignId } });
      await holder.query("COMMIT");
      expect(await tick).toMatchObject({ skipped: false, decision: { kind: "all_done" } });
    } finally {
      holder.release();
    }
    expect(await loopStateOf(project.id)).toMatchObject({ mode: "running", pauseReason: null });
    expect((await activity(project.id)).map((a) => a.message)).toEqual([
      "Loop stopped: all done, no tasks remain (a new prompt or Start runs it again)",
      "Loop started again: a prompt arrived as the queue ran dry",
      "All done: no pending or in-progress prompts and no planner configured",
    ]);
  });

  // Another writer acts between the tick's snapshot and its claim: a trigger on the tick's own lock
  // (the statement that reads the snapshot, whose rows the trigger's write no longer changes) plays it.
  async function afterTickLock(projectId: string, name: string, statement: string): Promise<() => Promise<void>> {
    const db = getDb();
    await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN ${statement}; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER ${name} AFTER UPDATE OF "tickLockedBy" ON "LoopState" FOR EACH ROW
      WHEN (NEW."projectId" = '${projectId}' AND OLD."tickLockedBy" IS NULL AND NEW."tickLockedBy" IS NOT NULL) EXECUTE FUNCTION ${name}()`);
    return async () => { await db.$executeRawUnsafe(`DROP TRIGGER ${name} ON "LoopState"`); };
  }

  it("claims nothing when the prompt is cancelled after the tick read it, and says only its decision", async () => {
    const { project } = await runningProject();
    const prompt = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    const drop = await afterTickLock(project.id, "cancel_prompt", `UPDATE "Prompt" SET status = 'cancelled' WHERE id = '${prompt.id}'`);
    try {
      expect(await runTick(project.id, clock)).toEqual({
        skipped: false, decision: { kind: "spawn_executor", promptId: prompt.id, promptNumber: 1, message: "Spawning executor for #1 (P3)" },
      });
    } finally {
      await drop();
    }
    expect(await runsOf(project.id)).toEqual([]);
    expect(await queuedJobs("spawn")).toEqual([]);
    expect(await queuedJobs("tick")).toEqual([]);
    expect((await activity(project.id)).map((a) => [a.type, a.message])).toEqual([["loopStatus", "Spawning executor for #1 (P3)"]]);
    expect(await loopStateOf(project.id)).toMatchObject({ tickLockedBy: null, tickCount: 1, lastSpawnAt: null, lastStatus: "Spawning executor for #1 (P3)" });
  });

  it("queues no planner when a racing spawn took the slot after the tick read it", async () => {
    const { project, profile } = await runningProject({ plannerEnabled: true, parallelEnabled: false, spawnCooldownMs: 10_000 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { plannerProfileId: profile.id } });
    // The racing spawn stamps the project's last spawn at this tick's instant: the cooldown holds the slot.
    const drop = await afterTickLock(project.id, "racing_spawn", `UPDATE "LoopState" SET "lastSpawnAt" = '${now.toISOString()}' WHERE "projectId" = '${project.id}'`);
    let result;
    try {
      result = await runTick(project.id, clock);
    } finally {
      await drop();
    }
    expect(result).toMatchObject({ skipped: false, decision: { kind: "spawn_planner", message: "Spawning emergent planner: no pending or in-progress prompts" } });
    expect(await runsOf(project.id)).toEqual([]);
    expect(await queuedJobs("spawn")).toEqual([]);
    expect((await activity(project.id)).map((a) => [a.type, a.message])).toEqual([["loopStatus", "Spawning emergent planner: no pending or in-progress prompts"]]);
    expect(await loopStateOf(project.id)).toMatchObject({ tickLockedBy: null, tickCount: 1, plannerLastSpawnAt: null, lastSpawnAt: now });
  });

  it("lets a claim's failure other than a budget's refusal through, releasing its lock and claiming nothing", async () => {
    const { project } = await runningProject();
    const prompt = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    const db = getDb();
    await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_run() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER refuse_run BEFORE INSERT ON "Run" FOR EACH ROW WHEN (NEW."projectId" = '${project.id}') EXECUTE FUNCTION refuse_run()`);
    try {
      await expect(runTick(project.id, clock)).rejects.toThrow("disk full");
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER refuse_run ON "Run"`);
    }
    expect(await loopStateOf(project.id)).toMatchObject({ tickLockedUntil: null, tickLockedBy: null, tickCount: 0, lastStatus: null, lastSpawnAt: null });
    expect((await db.prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("pending");
    expect(await runsOf(project.id)).toEqual([]);
  });
});
