import { afterEach, describe, expect, it } from "vitest";
import { startChaosServices } from "./helpers/chaos";
import { CHAOS_ENV, chaosProject, expectEveryPromptOnce, Fleet, startLoop, nextTickAfter, running, waitAllDone } from "./helpers/chaos-loop";
import { startWorkerProcess } from "./helpers/worker-process";
import { waitUntil } from "./helpers/fixtures";
import { getDb } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";

const chaos = await startChaosServices();
const fleet = new Fleet();
afterEach(() => fleet.stop());

describe("chaos: Postgres goes away", () => {
  it("Postgres down for 10 s while runs finish: their outcomes are recorded when it returns, nothing is re-run, the loop moves on", async () => {
    const { project, live } = await startLoop(fleet, { prompts: 9, maxParallel: 3, sleepMs: 2500 });
    await waitUntil("one prompt merged and two runs running", async () =>
      (await getDb().prompt.count({ where: { projectId: project.id, status: "done" } })) >= 1 && (await running(project.id)) >= 2, 90_000);
    const before = await getDb().run.findMany({ where: { projectId: project.id, status: "running" } });
    await chaos.stopPostgres();
    await new Promise((r) => setTimeout(r, 10_000));
    await chaos.startPostgres();
    const backAt = Date.now();

    await nextTickAfter(project.id, backAt);
    await waitAllDone(project.id, 9, fleet);
    await live.stop();
    await expectEveryPromptOnce(project.id, { lost: 0, fleet });
    // The runs that finished during the outage were completed as they were, not re-run.
    const after = await getDb().run.findMany({ where: { id: { in: before.map((r) => r.id) } } });
    expect(after.map((r) => r.status)).toEqual(before.map(() => "succeeded"));
    expect(live.peakAfter(backAt)).toBe(3);
  }, 150_000);

  it("a worker started while Postgres is down waits for it, says so once without credentials, and then works", async () => {
    const project = await chaosProject({ prompts: 3, maxParallel: 3, sleepMs: 500 });
    await chaos.stopPostgres();
    const withPassword = chaos.databaseUrl.replace("postgres@", "postgres:hunter2-secret@");
    const worker = startWorkerProcess({ DATABASE_URL: withPassword, WORKER_ID: "w0", ...CHAOS_ENV });
    fleet.workers.push(worker);
    await waitUntil("the waiting line", async () => worker.output().includes(`waiting for Postgres at 127.0.0.1:${chaos.pgPort}…`));
    await new Promise((r) => setTimeout(r, 3000));
    expect(worker.output()).not.toContain("workers started");
    await chaos.startPostgres();
    await waitUntil("workers started", async () => worker.output().includes("workers started"), 30_000);
    await enqueueTick(project.id, "chaos start");
    await waitAllDone(project.id, 3, fleet);
    await expectEveryPromptOnce(project.id, { lost: 0, fleet });

    const out = worker.output();
    expect(out.match(/waiting for Postgres/g)).toHaveLength(1);
    expect(out).not.toContain("waiting for Redis");
    expect(out).not.toContain("hunter2-secret");
    expect(out).not.toContain("announce failed");
    expect(out).not.toContain("job failed");
  }, 300_000);
});
