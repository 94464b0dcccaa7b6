import { afterEach, describe, expect, it } from "vitest";
import { startChaosServices } from "./helpers/chaos";
import { expectEveryPromptOnce, expectLostBySweep, Fleet, startLoop, nextTickAfter, running, TICK_MS, waitAllDone } from "./helpers/chaos-loop";
import { stopWorkerProcess } from "./helpers/worker-process";
import { waitUntil } from "./helpers/fixtures";
import { getDb } from "@/lib/db";
import { getQueue, tickSchedulerId } from "@/lib/queues";

const chaos = await startChaosServices();
const fleet = new Fleet();
afterEach(() => fleet.stop());


describe("chaos: Redis forgets or goes away", () => {
  it("FLUSHALL mid-loop, then kill -9 a worker: schedules come back, the dead worker's runs are noticed and re-run once", async () => {
    const { project, live } = await startLoop(fleet, { prompts: 9, maxParallel: 3, sleepMs: 2500 });
    await waitUntil("three runs live", async () => (await running(project.id)) === 3);
    const { worker, run } = await fleet.workerOf(project.id);
    await chaos.flushRedis();
    const flushedAt = Date.now();
    await stopWorkerProcess(worker, "SIGKILL");
    const killed = await getDb().run.findMany({ where: { projectId: project.id, workerId: run.workerId, status: { in: ["starting", "running"] } } });

    await nextTickAfter(project.id, flushedAt);
    // The flushed schedule is rebuilt from Postgres (once the queue runs dry the loop stops and drops it).
    await waitUntil("the tick schedule rebuilt", async () => (await getQueue("tick").getJobScheduler(tickSchedulerId(project.id)))?.every === TICK_MS, 60_000);
    await waitAllDone(project.id, 9, fleet);
    await live.stop();
    const runs = await expectEveryPromptOnce(project.id, { lost: killed.length, fleet });
    const lost = runs.filter((r) => r.status === "lost");
    expectLostBySweep(lost);
    expect(live.peakAfter(Math.max(...lost.map((r) => r.finishedAt!.getTime())))).toBe(3);
  }, 300_000);

  it("Redis down for 5 s while runs finish (every worker has enqueued before): no merge or wake-up is lost", async () => {
    const { project, live } = await startLoop(fleet, { prompts: 12, maxParallel: 3, sleepMs: 2500 });
    // Earlier runs finished (each completion enqueued from its worker); the next ones are running.
    await waitUntil("two prompts merged and two runs running", async () =>
      (await getDb().prompt.count({ where: { projectId: project.id, status: "done" } })) >= 2 && (await running(project.id)) >= 2, 90_000);
    await chaos.stopRedis({ keepData: true });
    const downAt = new Date();
    // The scenario needs work that finished while Redis was away: at least 5 s, and on a loaded
    // machine as long as it takes for a run to finish (its completion goes to Postgres only).
    await new Promise((r) => setTimeout(r, 5000));
    await waitUntil("a run finished while Redis is down", () =>
      getDb().run.count({ where: { projectId: project.id, status: "succeeded", finishedAt: { gt: downAt } } }), 90_000);
    await chaos.startRedis();
    const backAt = Date.now();

    await nextTickAfter(project.id, backAt);
    await waitAllDone(project.id, 12, fleet);
    await live.stop();
    await expectEveryPromptOnce(project.id, { lost: 0, fleet });
    expect(live.peakAfter(backAt)).toBe(3);
  }, 300_000);
});
