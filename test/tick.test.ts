import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { BURST_REASON, runTick } from "@/lib/loop/tick";
import { changeLoopMode } from "@/lib/loop/controls";
import { createPrompt } from "@/lib/prompts/create";
import { promptSnapshot } from "@/lib/loop/snapshot";
import { workerId } from "@/lib/worker-id";
import { sweepRuns } from "@/lib/runs/reconcile";
import { addPrompt } from "./helpers/fixtures";
import { activity, announced, createBareProject, emptyQueues, loopStateOf, queuedJobs } from "./helpers/runs";
import { statementsOf, verbOf } from "./helpers/statements";

const now = new Date("2026-11-23T12:00:00.000Z");
const clock = () => now;

async function runningProject(settings: Record<string, unknown> = {}) {
  const fixture = await createBareProject();
  await getDb().loopState.update({ where: { projectId: fixture.project.id }, data: { mode: "running" } });
  await getDb().projectSettings.update({ where: { projectId: fixture.project.id }, data: { spawnCooldownMs: 0, ...settings } });
  return fixture;
}

const runsOf = (projectId: string) => getDb().run.findMany({ where: { projectId }, orderBy: { queuedAt: "asc" } });

beforeEach(emptyQueues);

describe("a tick (seed 000)", () => {
  it("claims the next prompt, queues its spawn, logs it, and releases its lock with the tick's figures", async () => {
    const { team, project } = await runningProject();
    const p1 = await addPrompt(project.id, { number: 1, title: "one", body: "", priority: 2 });
    await addPrompt(project.id, { number: 2, title: "two", body: "", priority: 3 });

    const result = await runTick(project.id, clock);
    expect(result).toEqual({ skipped: false, decision: expect.objectContaining({ kind: "spawn_executor", promptId: p1.id, message: "Spawning executor for #1 (P2)" }) });
    const [run] = await runsOf(project.id);
    expect(run).toMatchObject({ promptId: p1.id, kind: "executor", status: "queued" });
    expect(await queuedJobs("spawn")).toEqual([[run.id, { runId: run.id }]]);
    expect((await activity(project.id)).map((a) => [a.type, a.message])).toEqual([
      ["taskAssigned", `#1 one: run ${run.id} queued`], ["loopStatus", "Spawning executor for #1 (P2)"],
    ]);
    expect(await loopStateOf(project.id)).toMatchObject({
      tickLockedUntil: null, tickLockedBy: null, tickCount: 1, lastTickAt: now, lastPendingCount: 2, lastSpawnAt: now,
      lastStatus: "Spawning executor for #1 (P2)", emergentSpawnCount: 0,
      snapshotHash: promptSnapshot([{ number: 1, status: "pending" }, { number: 2, status: "pending" }]).hash,
    });
    expect((await announced(team.id)).filter((e) => e.type === "promptsChange")).toEqual([{ type: "promptsChange", projectId: project.id }]);
  });

  it("reaches a new prompt's spawn in three statements (the lock with the snapshot, the profile, the claim), then logs and unlocks in one", async () => {
    const { project } = await runningProject();
    const prompt = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    const { result, statements } = await statementsOf(() => runTick(project.id, clock));
    expect(result).toMatchObject({ decision: { kind: "spawn_executor", promptId: prompt.id } });
    expect(statements.map(verbOf)).toEqual(["WITH", "SELECT AgentProfile", "WITH", "WITH"]);
    expect(statements[3]).toMatch(/^WITH logged AS \($/);
    expect((await runsOf(project.id)).map((r) => [r.promptId, r.status])).toEqual([[prompt.id, "queued"]]);
  });

  it.each([
    ["three slots, three ready prompts", { maxParallel: 3 }, 3, [[expect.any(String), { reason: BURST_REASON }]]],
    ["the spawn took the last slot", { maxParallel: 2 }, 3, "one running"],
    ["Parallel off", { parallelEnabled: false, maxParallel: 3 }, 3, []],
    ["no other prompt waits", { maxParallel: 3 }, 1, []],
  ] as const)("a burst: after a spawn, ticks again at once while a slot is free and another prompt waits (%s)", async (_name, settings, prompts, expected) => {
    const { project, profile } = await runningProject(settings);
    for (let n = 1; n <= prompts; n++) await addPrompt(project.id, { number: n, title: `p${n}`, body: "" });
    // "one running": another executor already holds a slot, so this spawn fills the last one.
    if (expected === "one running") await getDb().run.create({ data: { projectId: project.id, kind: "executor", status: "running", agentProfileId: profile.id, adapter: "demo" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "spawn_executor", promptNumber: 1 } });
    const ticks = (await queuedJobs("tick")).map(([id, data]) => [id, { reason: (data as { reason: string }).reason }]);
    expect(ticks).toEqual(expected === "one running" ? [] : expected);
  });

  it("logs a status and announces prompt changes only when they change", async () => {
    const { team, project } = await createBareProject();
    await addPrompt(project.id, { number: 1, title: "one", body: "" });
    await runTick(project.id, clock);
    await runTick(project.id, clock);
    expect((await activity(project.id)).map((a) => a.message)).toEqual(["Loop stopped"]);
    // What the tick logs is announced to the dashboard as well, once, after the log row is written.
    expect((await announced(team.id)).filter((e) => e.type === "loopStatus")).toEqual([{ type: "loopStatus", projectId: project.id, message: "Loop stopped" }]);
    expect((await announced(team.id)).filter((e) => e.type === "promptsChange")).toHaveLength(1);
    await addPrompt(project.id, { number: 2, title: "two", body: "" });
    await runTick(project.id, clock);
    expect((await announced(team.id)).filter((e) => e.type === "promptsChange")).toHaveLength(2);
    expect(await loopStateOf(project.id)).toMatchObject({ tickCount: 3, lastPendingCount: 2 });
    expect(await runsOf(project.id)).toEqual([]);
  });

  it("says so when no executor profile is configured, and claims nothing", async () => {
    const { project } = await runningProject({ executorProfileId: null });
    await addPrompt(project.id, { number: 1, title: "one", body: "" });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "spawn_executor" } });
    expect(await runsOf(project.id)).toEqual([]);
    expect((await activity(project.id)).map((a) => a.message)).toEqual(["No executor agent profile configured: choose one in the project settings"]);
    expect((await loopStateOf(project.id)).lastStatus).toBe("No executor agent profile configured: choose one in the project settings");
  });

  it("counts an unapproved prompt as blocked and a sequential project as one slot", async () => {
    const { project } = await runningProject({ parallelEnabled: false, maxParallel: 5 });
    const first = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    const gated = await addPrompt(project.id, { number: 2, title: "gated", body: "", priority: 1 });
    await getDb().prompt.update({ where: { id: gated.id }, data: { approval: "pending" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "spawn_executor", promptId: first.id } });
    await getDb().prompt.update({ where: { id: gated.id }, data: { approval: "approved" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "at_max", message: "At max parallel (1/1 executors)" } });
    expect((await runsOf(project.id)).map((r) => r.promptId)).toEqual([first.id]);
  });

  it("spawns the planner when the queue is dry, recording its backoff state", async () => {
    const { project, profile } = await runningProject({ plannerEnabled: true });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { plannerProfileId: profile.id } });
    await getDb().loopState.update({ where: { projectId: project.id }, data: { emergentSpawnCount: 1, emergentLastPromptCount: 0, plannerLastSpawnAt: new Date(now.getTime() - 3_600_000) } });
    const result = await runTick(project.id, clock);
    expect(result).toMatchObject({ decision: { kind: "spawn_planner" } });
    const [run] = await runsOf(project.id);
    expect(run).toMatchObject({ kind: "planner", promptId: null, status: "queued" });
    expect(await queuedJobs("spawn")).toEqual([[run.id, { runId: run.id }]]);
    expect((await activity(project.id))[0]).toMatchObject({ type: "taskAssigned", message: `Planner run ${run.id} queued`, data: { runId: run.id } });
    const decision = (result as { decision: { planner: { unproductiveSpawns: number; lastPromptCount: number; lastSpawnAt: Date } } }).decision;
    expect(await loopStateOf(project.id)).toMatchObject({
      emergentSpawnCount: decision.planner.unproductiveSpawns, emergentLastPromptCount: decision.planner.lastPromptCount,
      plannerLastSpawnAt: decision.planner.lastSpawnAt, lastSpawnAt: now,
    });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "blocked_planner", message: "Planner running: no spawns until it finishes" } });
  });

  it("announces all done once and stops the autopilot itself (seed 003), and finishes stopping when the last agent is gone", async () => {
    const { team, project } = await runningProject({ plannerEnabled: true });
    // An empty queue waits for its first prompt: the loop keeps running.
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "all_done" } });
    expect((await loopStateOf(project.id)).mode).toBe("running");
    expect((await announced(team.id)).filter((e) => e.type === "allDone")).toEqual([]);
    const done = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    await getDb().prompt.update({ where: { id: done.id }, data: { status: "done" } });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "all_done" } });
    expect((await loopStateOf(project.id)).mode).toBe("stopped");
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "idle", message: "Loop stopped" } });
    expect((await announced(team.id)).filter((e) => e.type === "allDone")).toEqual([{ type: "allDone", projectId: project.id }]);
    expect((await announced(team.id)).filter((e) => e.type === "stopped")).toHaveLength(1);
    expect(await getDb().auditEvent.findFirst({ where: { teamId: team.id, action: "loop.stop" } })).toMatchObject({ actorType: "system" });

    // New work starts a loop the autopilot stopped for an empty queue; a person's Stop stays.
    const person = { kind: "user" as const, id: "someone", teamId: team.id, role: "owner" as const, projectId: null };
    const fresh = await getDb().project.findUniqueOrThrow({ where: { id: project.id } });
    await createPrompt(person, fresh, { title: "more", body: "" });
    expect(await loopStateOf(project.id)).toMatchObject({ mode: "running", pauseReason: null });
    await changeLoopMode(fresh, "stop", person);
    await createPrompt(person, fresh, { title: "even more", body: "" });
    expect((await loopStateOf(project.id)).mode).toBe("stopped");
    await getDb().prompt.updateMany({ where: { projectId: project.id }, data: { status: "done" } });

    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "stopping" } });
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "executor", status: "running", adapter: "demo", leaseExpiresAt: new Date(now.getTime() + 60_000) } });
    await runTick(project.id, clock);
    expect((await loopStateOf(project.id)).mode).toBe("stopping");
    await getDb().run.update({ where: { id: run.id }, data: { status: "succeeded" } });
    await runTick(project.id, clock);
    expect((await loopStateOf(project.id)).mode).toBe("stopped");
    expect((await activity(project.id)).filter((a) => a.type === "stopped").map((a) => a.message)).toEqual([
      "Loop stopped: all done, no tasks remain (a new prompt or Start runs it again)", "Loop stopped", "Loop stopped: all running agents finished",
    ]);
  });

  it("leaves an expired lease to the fleet-wide sweeper, and picks the prompt it returned at the next tick", async () => {
    const { project, profile } = await runningProject();
    const prompt = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    await getDb().prompt.update({ where: { id: prompt.id }, data: { status: "in_progress" } });
    const lost = await getDb().run.create({
      data: { projectId: project.id, promptId: prompt.id, kind: "executor", status: "running", adapter: "demo", agentProfileId: profile.id, leaseExpiresAt: new Date(Date.now() - 1000) },
    });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "wait" } });
    expect((await runsOf(project.id)).map((r) => r.status)).toEqual(["running"]);
    expect(await sweepRuns({ leaseTtlMs: 1000, requeueAfterMs: 15_000, maxLostRuns: 3 })).toEqual({ lost: 1, requeued: 0 });
    expect(await runTick(project.id, clock)).toMatchObject({ decision: { kind: "spawn_executor", promptId: prompt.id } });
    expect((await runsOf(project.id)).map((r) => [r.id === lost.id, r.status])).toEqual([[true, "lost"], [false, "queued"]]);
  });

  it("skips while another worker holds the lock, and leaves that lock alone", async () => {
    const { project } = await runningProject();
    const until = new Date(Date.now() + 60_000);
    await getDb().loopState.update({ where: { projectId: project.id }, data: { tickLockedUntil: until, tickLockedBy: "other-worker" } });
    expect(await runTick(project.id, clock)).toEqual({ skipped: "locked" });
    expect(await loopStateOf(project.id)).toMatchObject({ tickLockedBy: "other-worker", tickCount: 0 });
    expect(workerId()).not.toBe("other-worker");
  });
});
