import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { sweepRuns } from "@/lib/runs/reconcile";
import { activity, audits, emptyQueues, livePlannerRun, liveRun, loopStateOf, queuedJobs, tokenOf } from "./helpers/runs";

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
});
