import { beforeEach, describe, expect, it } from "vitest";
import { getDb, getPool } from "@/lib/db";
import { sweepRuns } from "@/lib/runs/reconcile";
import { Worker } from "bullmq";
import { getEnv } from "@/lib/env";
import { getQueue } from "@/lib/queues";
import { createRedis } from "@/lib/redis/connections";
import { activity, audits, emptyQueues, livePlannerRun, liveRun, loopStateOf, queuedJobs, tokenOf } from "./helpers/runs";
import { waitUntil } from "./helpers/fixtures";

// Leases are compared on the database's clock, so times here are relative to the real now.
const ago = (ms: number) => new Date(Date.now() - ms);
const sweep = () => sweepRuns({ leaseTtlMs: 1000, requeueAfterMs: 15_000, maxLostRuns: 3 });

beforeEach(async () => {
  await emptyQueues();
  // The sweep is fleet-wide: runs left live by an earlier case must not count in the next.
  await getDb().run.updateMany({ where: { status: { in: ["queued", "starting", "running"] } }, data: { status: "cancelled", leaseExpiresAt: null } });
  await getDb().run.updateMany({ where: { mergeStatus: "pending" }, data: { mergeStatus: "merged" } });
});

describe("reconciling runs (invariant 4)", () => {
  it("marks a run whose lease expired lost, returns its prompt to the queue, frees its slot and revokes its token", async () => {
    const { team, project, run, prompt } = await liveRun({ leaseExpiresAt: ago(1) });
    const bystander = await liveRun();
    const [acts, audit] = [await activity(project.id), await audits(team.id)];

    expect(await sweep()).toEqual({ lost: 1, requeued: 0 });

    const lost = await getDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(lost).toMatchObject({ status: "lost", error: "lease expired: the worker running this agent stopped renewing it" });
    expect(lost.finishedAt!.getTime()).toBeGreaterThanOrEqual(lost.leaseExpiresAt!.getTime());
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ status: "pending", attempts: 0 });
    expect((await loopStateOf(project.id)).lastSpawnAt).toBeNull();
    expect((await tokenOf(run.id)).revokedAt).toEqual(lost.finishedAt);
    expect((await tokenOf(bystander.run.id)).revokedAt).toBeNull();
    expect((await audits(team.id)).slice(audit.length)).toEqual([
      { action: "run.lost", actorType: "system", targetType: "run", targetId: run.id, before: { status: "running" }, after: { status: "lost", promptStatus: "pending" } },
    ]);
    expect((await activity(project.id)).slice(acts.length)).toEqual([
      { type: "taskFailed", message: `Run ${run.id} lost: lease expired; prompt returned to the queue`, data: { runId: run.id, promptId: prompt.id } },
    ]);
    expect(await queuedJobs("tick")).toEqual([[expect.any(String), { projectId: project.id, reason: "run lost" }]]);
    // A lost run is neither spawned nor merged again.
    expect(await queuedJobs("spawn")).toEqual([]);
    expect(await queuedJobs("merge")).toEqual([]);
  });

  it("fails the prompt whose runs were lost maxLostRuns times, and says so", async () => {
    const { team, project, run, prompt, profile } = await liveRun({ leaseExpiresAt: ago(1) });
    for (let i = 0; i < 2; i++) {
      await getDb().run.create({ data: { projectId: project.id, promptId: prompt.id, kind: "executor", status: "lost", adapter: "demo", agentProfileId: profile.id } });
    }
    const [acts, audit] = [await activity(project.id), await audits(team.id)];
    expect(await sweep()).toEqual({ lost: 1, requeued: 0 });
    const failureLog = "its runs were lost 3 times (the worker running it died or was cut off each time)";
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ status: "failed", failureLog, attempts: 0 });
    expect((await audits(team.id)).slice(audit.length).map((a) => a.after)).toEqual([{ status: "lost", promptStatus: "failed" }]);
    expect((await activity(project.id)).slice(acts.length)).toEqual([
      { type: "taskFailed", message: `Run ${run.id} lost: lease expired; prompt failed: ${failureLog}`, data: { runId: run.id, promptId: prompt.id } },
    ]);
  });

  it("leaves runs alone whose lease is still valid or that hold none yet", async () => {
    const { team, project, run, prompt } = await liveRun({ leaseExpiresAt: new Date(Date.now() + 60_000) });
    const unleased = await livePlannerRun(project.id, (await getDb().agentProfile.findFirstOrThrow({ where: { teamId: team.id } })).id);
    await getDb().run.update({ where: { id: unleased.id }, data: { status: "starting", leaseExpiresAt: null } });
    const spawnedAt = (await loopStateOf(project.id)).lastSpawnAt;
    const acts = await activity(project.id);

    expect(await sweep()).toEqual({ lost: 0, requeued: 0 });

    expect((await getDb().run.findUniqueOrThrow({ where: { id: unleased.id } })).status).toBe("starting");
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("running");
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("in_progress");
    expect((await loopStateOf(project.id)).lastSpawnAt).toEqual(spawnedAt);
    expect((await tokenOf(run.id)).revokedAt).toBeNull();
    expect(await activity(project.id)).toEqual(acts);
    expect(await queuedJobs("tick")).toEqual([]);
  });

  it("marks a lost run without a prompt (the planner) and counts every lost run once", async () => {
    const { team, project, run } = await liveRun({ leaseExpiresAt: ago(5_000) });
    const profile = await getDb().agentProfile.findFirstOrThrow({ where: { teamId: team.id } });
    const planner = await livePlannerRun(project.id, profile.id);
    await getDb().run.update({ where: { id: planner.id }, data: { leaseExpiresAt: ago(1) } });
    const acts = await activity(project.id);

    expect(await sweep()).toEqual({ lost: 2, requeued: 0 });
    expect((await getDb().run.findUniqueOrThrow({ where: { id: planner.id } })).status).toBe("lost");
    expect((await activity(project.id)).slice(acts.length).map((a) => a.message).sort()).toEqual([`Run ${planner.id} lost: lease expired`, `Run ${run.id} lost: lease expired; prompt returned to the queue`].sort());
    expect((await activity(project.id)).slice(acts.length).map((a) => a.data).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))))
      .toEqual([{ runId: planner.id }, { runId: run.id, promptId: run.promptId }].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
    expect(await sweep()).toEqual({ lost: 0, requeued: 0 });
  });

  it("queues a queued run's spawn again once it has waited past 15 s, and not before; a queued run is never taken for lost", async () => {
    const { run } = await liveRun();
    await getDb().run.update({ where: { id: run.id }, data: { status: "queued", queuedAt: ago(14_000), leaseExpiresAt: ago(1) } });
    expect(await sweep()).toEqual({ lost: 0, requeued: 0 });
    expect(await queuedJobs("spawn")).toEqual([]);
    await getDb().run.update({ where: { id: run.id }, data: { queuedAt: ago(16_000) } });
    expect(await sweep()).toEqual({ lost: 0, requeued: 1 });
    expect(await queuedJobs("spawn")).toEqual([[run.id, { runId: run.id }]]);
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("queued");
    expect(await queuedJobs("tick")).toEqual([]);
  });

  it("queues a finished run's merge again once it has waited past 15 s, and not before", async () => {
    const { run } = await liveRun();
    await getDb().run.update({ where: { id: run.id }, data: { status: "succeeded", mergeStatus: "pending", finishedAt: ago(14_000), leaseExpiresAt: null } });
    expect(await sweep()).toEqual({ lost: 0, requeued: 0 });
    expect(await queuedJobs("merge")).toEqual([]);
    await getDb().run.update({ where: { id: run.id }, data: { finishedAt: ago(16_000) } });
    expect(await sweep()).toEqual({ lost: 0, requeued: 1 });
    expect(await queuedJobs("merge")).toEqual([[`merge-${run.id}`, { runId: run.id }]]);
  });
  it("queues a finished run's merge again when its merge job failed for good", async () => {
    const { run } = await liveRun();
    await getDb().run.update({ where: { id: run.id }, data: { status: "succeeded", mergeStatus: "pending", finishedAt: ago(16_000), leaseExpiresAt: null } });
    // Its job failed for good (every attempt met Postgres down): the same job id would be a no-op.
    await getQueue("merge").add("merge", { runId: run.id }, { jobId: `merge-${run.id}`, attempts: 1 });
    const worker = new Worker("merge", null, { connection: createRedis("worker"), prefix: getEnv().REDIS_PREFIX });
    const job = (await worker.getNextJob("test"))!;
    await job.moveToFailed(new Error("Postgres was down"), "test");
    await worker.close();
    expect(await (await getQueue("merge").getJob(`merge-${run.id}`))!.getState()).toBe("failed");
    expect(await sweep()).toEqual({ lost: 0, requeued: 1 });
    expect(await (await getQueue("merge").getJob(`merge-${run.id}`))!.getState()).toBe("waiting");
  });

  it.each([
    ["whose lease was renewed", `"leaseExpiresAt" = timezone('UTC', now()) + interval '60 seconds'`, "running"],
    ["that finished", `status = 'failed'`, "failed"],
  ])("leaves a run %s while the sweep looked (its update is conditional)", async (_, change, status) => {
    const { team, project, run, prompt } = await liveRun({ leaseExpiresAt: ago(1) });
    const [acts, audit] = [await activity(project.id), await audits(team.id)];
    // The run's row is held while the sweep runs: its SELECT saw the lease expired, its update waits for the row.
    const holder = await getPool().connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT id FROM "Run" WHERE id = $1 FOR UPDATE`, [run.id]);
      const swept = sweep();
      await waitUntil("the sweep's update waits for the row", async () => (await getPool().query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE 'UPDATE%Run%'`,
      )).rows[0].n > 0);
      await holder.query(`UPDATE "Run" SET ${change} WHERE id = $1`, [run.id]);
      await holder.query("COMMIT");
      // Found by the sweep but neither lost nor queued again: it counts as neither.
      expect(await swept).toEqual({ lost: 0, requeued: 0 });
    } finally {
      holder.release();
    }
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe(status);
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("in_progress");
    expect((await tokenOf(run.id)).revokedAt).toBeNull();
    expect(await audits(team.id)).toEqual(audit);
    expect(await activity(project.id)).toEqual(acts);
    expect(await queuedJobs("tick")).toEqual([]);
  });
});
