import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { Worker } from "bullmq";
import { getEnv } from "@/lib/env";
import { getQueue } from "@/lib/queues";
import { createRedis } from "@/lib/redis/connections";
import { sweepRuns } from "@/lib/runs/reconcile";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";

const past = (ms: number) => new Date(Date.now() - ms);
const sweep = (over: Partial<Parameters<typeof sweepRuns>[0]> = {}) => sweepRuns({ leaseTtlMs: 1000, requeueAfterMs: 15_000, maxLostRuns: 2, ...over });

async function liveRun(projectId: string, promptId: string) {
  await getDb().prompt.update({ where: { id: promptId }, data: { status: "in_progress" } });
  return getDb().run.create({ data: { projectId, promptId, kind: "executor", adapter: "demo", status: "running", workerId: "gone", leaseExpiresAt: past(1000), heartbeatAt: past(13_000) } });
}

describe("the fleet-wide sweeper", () => {
  it("marks an expired run lost and returns its prompt without spending an attempt; lost again past the cap, the prompt fails with the reason", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const prompt = await addPrompt(project.id, { number: 1, title: "kills its worker", body: "" });
    const first = await liveRun(project.id, prompt.id);
    expect(await sweep()).toEqual({ lost: 1, requeued: 0 });
    expect((await getDb().run.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("lost");
    let p = await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    expect([p.status, p.attempts]).toEqual(["pending", 0]);
    expect(await sweep()).toEqual({ lost: 0, requeued: 0 });

    await liveRun(project.id, prompt.id);
    expect(await sweep()).toEqual({ lost: 1, requeued: 0 });
    p = await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    expect([p.status, p.attempts, p.failureLog]).toEqual(["failed", 0, "its runs were lost 2 times (the worker running it died or was cut off each time)"]);
  });

  it("gives leases one TTL after Postgres (re)started before any counts as expired", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const prompt = await addPrompt(project.id, { number: 1, title: "p", body: "" });
    const run = await liveRun(project.id, prompt.id);
    expect(await sweep({ leaseTtlMs: 10 * 365 * 24 * 3600_000 })).toEqual({ lost: 0, requeued: 0 });
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("running");
  });

  it("enqueues a queued run again when its spawn job failed for good", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "planner", adapter: "demo", queuedAt: past(20_000) } });
    // Its job failed for good (every attempt met Postgres down): the same job id would be a no-op.
    await getQueue("spawn").add("spawn", { runId: run.id }, { jobId: run.id, attempts: 1 });
    const worker = new Worker("spawn", null, { connection: createRedis("worker"), prefix: getEnv().REDIS_PREFIX });
    const job = (await worker.getNextJob("test"))!;
    await job.moveToFailed(new Error("Postgres was down"), "test");
    await worker.close();
    expect(await (await getQueue("spawn").getJob(run.id))!.getState()).toBe("failed");
    expect((await sweep()).requeued).toBe(1);
    expect(await (await getQueue("spawn").getJob(run.id))!.getState()).toBe("waiting");
  });
});
