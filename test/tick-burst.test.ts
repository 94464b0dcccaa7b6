import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { BURST_REASON } from "@/lib/loop/tick";
import { enqueueTick, getQueue } from "@/lib/queues";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";

// No safety-net tick at all, in this process and the worker's: only the first nudge and the
// loop's own burst ticks may start agents.
process.env.TICK_SCHEDULES = "off";

const workers: ReturnType<typeof startWorkerProcess>[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => stopWorkerProcess(w)));
});

describe("a burst of prompts with a real worker process and the demo agent", () => {
  it("fills all four free slots from one nudge, with no periodic tick and no run finishing", async () => {
    const { project } = await createTeamWithProject({ maxParallel: 4 });
    // Agents that outlive the test: no run finishes, so no completion nudges a tick.
    for (let n = 1; n <= 10; n++) await addPrompt(project.id, { number: n, title: `p${n}`, body: "sleep 600000\n" });
    const worker = startWorkerProcess();
    workers.push(worker);
    await waitForWorkers(worker);
    await enqueueTick(project.id, "test start");

    const db = getDb();
    await waitUntil("four agents running", async () =>
      (await db.run.count({ where: { projectId: project.id, status: "running", pid: { not: null } } })) === 4, 60_000,
    ).catch((err) => { throw new Error(`${err.message}\n${worker.output()}`); });

    const runs = await db.run.findMany({ where: { projectId: project.id }, include: { prompt: true } });
    // Seed 000's order: the first four prompts, each once; the other six wait.
    expect(runs.map((r) => r.prompt!.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    expect(await db.prompt.count({ where: { projectId: project.id, status: "pending" } })).toBe(6);
    // Every tick that ran was the first nudge or a burst tick the loop asked for itself
    // (a burst tick that met the previous tick's lock comes back under its own reason).
    const ticks = await getQueue("tick").getJobs(["completed", "active", "waiting", "delayed"]);
    const reasons = new Set(ticks.filter((j) => j.data.projectId === project.id).map((j) => j.data.reason));
    expect([...reasons].sort()).toEqual([BURST_REASON, "test start"].sort());
  }, 180_000);
});
