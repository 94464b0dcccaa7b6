import { afterEach, describe, expect, it } from "vitest";
import type { JobType } from "bullmq";
import { startChaosServices } from "./helpers/chaos";
import { chaosProject, expectEveryPromptOnce, expectLostBySweep, Fleet, LEASE_TTL_MS, startLoop, waitAllDone } from "./helpers/chaos-loop";
import { stopWorkerProcess } from "./helpers/worker-process";
import { waitUntil } from "./helpers/fixtures";
import { getDb } from "@/lib/db";
import { enqueueTick, getQueue, relayOutbox, tickSchedulerId } from "@/lib/queues";
import { getRedis, redisKey } from "@/lib/redis/connections";
import { sweepRuns } from "@/lib/runs/reconcile";
import { ensureTickSchedules } from "@/lib/loop/schedules";
import { archiveProject } from "@/lib/projects/update";

await startChaosServices();
const fleet = new Fleet();
afterEach(() => fleet.stop());

describe("chaos: worker processes die", () => {
  it("kill -9 of a worker mid-run: its runs are marked lost by the sweeper once their lease expired and re-run once, without spending attempts", async () => {
    const { project, live } = await startLoop(fleet, { prompts: 9, maxParallel: 3, sleepMs: 2500 });
    const { worker, run } = await fleet.workerOf(project.id);
    await waitUntil("three runs live", async () => (await getDb().run.count({ where: { projectId: project.id, status: "running" } })) === 3);
    await stopWorkerProcess(worker, "SIGKILL");
    const killed = await getDb().run.findMany({ where: { projectId: project.id, workerId: run.workerId, status: { in: ["starting", "running"] } } });

    await waitAllDone(project.id, 9, fleet);
    await live.stop();
    const runs = await expectEveryPromptOnce(project.id, { lost: killed.length, fleet });
    const lost = runs.filter((r) => r.status === "lost");
    expect(lost.map((r) => r.id).sort()).toEqual(killed.map((r) => r.id).sort());
    expectLostBySweep(lost);
    const noticedAt = Math.max(...lost.map((r) => r.finishedAt!.getTime()));
    expect(live.peakAfter(noticedAt)).toBe(3);
  }, 300_000);

  it("archiving a project while its run is live: the run ends and the project then costs no tick", async () => {
    const project = await chaosProject({ prompts: 1, maxParallel: 1, sleepMs: 1500 });
    await fleet.start(1);
    await enqueueTick(project.id, "chaos start");
    const { run } = await fleet.workerOf(project.id);
    await archiveProject(project);
    await waitUntil("the run to end", async () => (await getDb().run.findUnique({ where: { id: run.id } }))?.mergeStatus === "merged");

    const projectTicks = async (states: JobType[]) => (await getQueue("tick").getJobs(states, 0, -1))
      .filter((j) => j?.data.projectId === project.id);
    const tickJobs = async (states: JobType[]) => (await projectTicks(states)).length;
    // Settled: every wake-up the run and its merge recorded has been handed to BullMQ and
    // consumed. A tick that re-queued itself would never let this hold.
    await waitUntil("no wake-up pending", async () =>
      (await getDb().outbox.count()) === 0 && (await tickJobs(["waiting", "delayed", "active", "prioritized"])) === 0);
    const { tickCount } = await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } });
    // No periodic tick, and the cycles that could bring one back (the relay, the sweeper, a
    // forced schedule rebuild), run here explicitly, queue nothing for it: no window to wait out.
    expect(await getQueue("tick").getJobScheduler(tickSchedulerId(project.id))).toBeUndefined();
    await relayOutbox();
    await sweepRuns({ leaseTtlMs: LEASE_TTL_MS, requeueAfterMs: 15_000, maxLostRuns: 3 });
    await getRedis("producer").del(redisKey("schedules", "built"));
    await ensureTickSchedules({ force: true });
    expect(await getQueue("tick").getJobScheduler(tickSchedulerId(project.id))).toBeUndefined();
    expect(await tickJobs(["waiting", "delayed", "active", "prioritized"])).toBe(0);
    const state = await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } });
    expect(state.tickLockedUntil).toBeNull();
    expect(state.tickCount).toBe(tickCount);
  }, 300_000);
});
