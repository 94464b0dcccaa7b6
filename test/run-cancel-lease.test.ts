import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { cancelRun, RunStateError } from "@/lib/runs/cancel";
import { startLeaseRenewal } from "@/lib/runs/lease";
import { activity, audits, createBareProject, emptyQueues, livePlannerRun, liveRun, loopStateOf, queuedJobs, tokenOf } from "./helpers/runs";
import { waitUntil } from "./helpers/fixtures";

beforeEach(emptyQueues);

describe("cancelling a run", () => {
  it("cancels a live run and its prompt, frees the slot, revokes the token and records who did it", async () => {
    const { team, project, run, prompt } = await liveRun();
    const [acts, audit] = [await activity(project.id), await audits(team.id)];
    await cancelRun(project, run.id, { kind: "user", id: "user-1" });

    const after = await getDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(after).toMatchObject({ status: "cancelled", error: "cancelled by a person", leaseExpiresAt: null });
    const cancelled = await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    expect(cancelled).toMatchObject({ status: "cancelled", attempts: 0 });
    expect(cancelled.completedAt).toEqual(after.finishedAt);
    expect((await loopStateOf(project.id)).lastSpawnAt).toBeNull();
    expect((await tokenOf(run.id)).revokedAt).toBeInstanceOf(Date);
    expect((await audits(team.id)).slice(audit.length)).toEqual([
      { action: "run.cancelled", actorType: "user", targetType: "run", targetId: run.id, before: { status: "live" }, after: { status: "cancelled" } },
    ]);
    expect((await activity(project.id)).slice(acts.length)).toEqual([
      { type: "taskFailed", message: "#4 Add search: run cancelled", data: { runId: run.id, promptId: prompt.id } },
    ]);
    expect(await queuedJobs("tick")).toEqual([[expect.any(String), { projectId: project.id, reason: "run cancelled" }]]);
  });

  it("cancels a queued run; leaves a prompt that is no longer in progress as it is", async () => {
    const { team, project, run, prompt } = await liveRun();
    await getDb().run.update({ where: { id: run.id }, data: { status: "queued" } });
    await getDb().prompt.update({ where: { id: prompt.id }, data: { status: "pending" } });
    await cancelRun(project, run.id);
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("cancelled");
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ status: "pending", completedAt: null });
    expect((await audits(team.id)).at(-1)!.actorType).toBe("system");
  });

  it("labels a run without a prompt by its kind", async () => {
    const { project, profile } = await createBareProject();
    const planner = await livePlannerRun(project.id, profile.id);
    await cancelRun(project, planner.id);
    expect((await activity(project.id)).map((a) => a.message)).toEqual(["planner run: run cancelled"]);
  });

  it("refuses a finished run and another project's run, changing nothing", async () => {
    const { team, project, run, prompt } = await liveRun();
    const other = await createBareProject();
    await expect(cancelRun(other.project, run.id)).rejects.toThrow(new RunStateError("only a queued or running run can be cancelled"));
    // The API answers it as a conflict.
    await expect(cancelRun(other.project, run.id)).rejects.toMatchObject({ status: 409, code: "conflict" });
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("running");
    await getDb().run.update({ where: { id: run.id }, data: { status: "failed" } });
    const audit = await audits(team.id);
    await expect(cancelRun(project, run.id)).rejects.toBeInstanceOf(RunStateError);
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("failed");
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("in_progress");
    expect((await tokenOf(run.id)).revokedAt).toBeNull();
    expect(await audits(team.id)).toEqual(audit);
    expect(await queuedJobs("tick")).toEqual([]);
  });
});

describe("renewing a run's lease", () => {
  it("extends the lease by its TTL from each heartbeat while the run is live and held by this worker", async () => {
    const { run } = await liveRun();
    await getDb().run.update({ where: { id: run.id }, data: { status: "starting" } });
    let lost = 0;
    const stop = startLeaseRenewal({ runId: run.id, workerId: "worker-a", ttlMs: 30_000, everyMs: 20, onLost: () => lost++ });
    try {
      const renewed = await waitUntil("a heartbeat", async () => (await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).heartbeatAt && getDb().run.findUniqueOrThrow({ where: { id: run.id } }));
      expect(renewed.leaseExpiresAt!.getTime() - renewed.heartbeatAt!.getTime()).toBe(30_000);
      expect(lost).toBe(0);
    } finally {
      stop();
    }
  });

  it("reports the run lost once it is no longer live or held by another worker, and stops renewing when told", async () => {
    const { run } = await liveRun();
    const lostTo: string[] = [];
    const stopOther = startLeaseRenewal({ runId: run.id, workerId: "worker-b", ttlMs: 30_000, everyMs: 20, onLost: () => lostTo.push("worker-b") });
    await waitUntil("worker-b told", async () => lostTo.includes("worker-b"));
    stopOther();
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).heartbeatAt).toBeNull();

    const stop = startLeaseRenewal({ runId: run.id, workerId: "worker-a", ttlMs: 30_000, everyMs: 20, onLost: () => lostTo.push("worker-a") });
    await waitUntil("a heartbeat", async () => (await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).heartbeatAt);
    await getDb().run.update({ where: { id: run.id }, data: { status: "cancelled" } });
    await waitUntil("worker-a told", async () => lostTo.includes("worker-a"));
    stop();
    const stoppedAt = Date.now();
    await getDb().run.update({ where: { id: run.id }, data: { status: "running", heartbeatAt: null } });
    // Time for a renewal that wrongly kept going (every 20 ms) to land.
    await new Promise((r) => setTimeout(r, 500));
    // A renewal already under way when stopped may still land (on a loaded machine, any time
    // later), stamped before the stop; none starts afterwards.
    const { heartbeatAt } = await getDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(heartbeatAt === null || heartbeatAt.getTime() <= stoppedAt, `heartbeat ${heartbeatAt?.toISOString()} after the stop`).toBe(true);
  });
});
