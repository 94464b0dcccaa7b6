import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getQueue, tickSchedulerId, upsertTickScheduler } from "@/lib/queues";
import { getRedis, redisKey } from "@/lib/redis/connections";
import { ensureTickSchedules } from "@/lib/loop/schedules";
import { archiveProject } from "@/lib/projects/update";
import { withRedisLock } from "@/lib/redis/lock";
import { changeLoopMode } from "@/lib/loop/controls";
import { runTick } from "@/lib/loop/tick";
import { processTick } from "@/workers/tick";
import type { Job } from "bullmq";
import { createTeamWithProject, waitUntil } from "./helpers/fixtures";

const schedulers = async () => (await getQueue("tick").getJobSchedulers(0, -1)).map((s) => [s.key, s.every]).sort();

describe("tick schedules are rebuilt from Postgres", () => {
  it("after Redis forgot them: every active project's scheduler is back at its interval, nudged once; an archived one has none", async () => {
    const a = await createTeamWithProject();
    const b = await createTeamWithProject();
    const gone = await createTeamWithProject();
    await getDb().projectSettings.update({ where: { projectId: b.project.id }, data: { tickIntervalMs: 2000 } });
    await archiveProject(gone.project);
    // What FLUSHALL leaves: no scheduler, no marker; plus a stale scheduler of the archived project.
    for (const { project } of [a, b]) await getQueue("tick").removeJobScheduler(tickSchedulerId(project.id));
    await upsertTickScheduler(gone.project.id, 5000);
    await getRedis("producer").del(redisKey("schedules", "built"));

    expect(await ensureTickSchedules({ force: false })).toBe(2);
    expect(await schedulers()).toEqual([[tickSchedulerId(a.project.id), 5000], [tickSchedulerId(b.project.id), 2000]].sort());
    const nudges = (await getQueue("tick").getJobs(["waiting", "delayed"])).filter((j) => j.name === "nudge" && j.data.reason === "schedules rebuilt");
    expect(nudges.map((j) => j.data.projectId).sort()).toEqual([a.project.id, b.project.id].sort());

    // With the marker in place nothing is read again, and a forced check changes nothing.
    expect(await ensureTickSchedules({ force: false })).toBeNull();
    expect(await ensureTickSchedules({ force: true })).toBe(0);
    expect(await schedulers()).toHaveLength(2);
  });
});

describe("a stopped or archived project costs nothing", () => {
  const tickJobs = async (projectId: string) => (await getQueue("tick").getJobs(["waiting", "delayed", "prioritized", "active"], 0, -1))
    .filter((j) => j?.data.projectId === projectId);

  it("its periodic tick goes when the loop stops (at once, or when its last run ends), the rebuild does not bring it back, and its ticks never re-queue themselves", async () => {
    const { project } = await createTeamWithProject();
    const scheduler = () => getQueue("tick").getJobScheduler(tickSchedulerId(project.id));
    expect((await scheduler())?.every).toBe(5000);
    // A live run: stopping waits for it and keeps ticking until it ends.
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "executor", adapter: "demo", status: "running" } });
    expect(await changeLoopMode(project, "stop")).toBe("stopping");
    expect((await scheduler())?.every).toBe(5000);
    await getDb().run.update({ where: { id: run.id }, data: { status: "succeeded", finishedAt: new Date() } });
    expect(await runTick(project.id)).toMatchObject({ skipped: false });
    expect((await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } })).mode).toBe("stopped");
    expect(await scheduler()).toBeUndefined();

    // Redis forgets everything: the rebuild schedules and nudges no stopped project.
    await getRedis("producer").del(redisKey("schedules", "built"));
    await getQueue("tick").obliterate({ force: true });
    await ensureTickSchedules({ force: false });
    expect(await scheduler()).toBeUndefined();
    expect(await tickJobs(project.id)).toEqual([]);

    // A nudge (a prompt added, say) costs one tick, which queues nothing after it.
    expect(await processTick({ projectId: project.id, reason: "prompt created" }, { name: "nudge" } as Job)).toMatchObject({ skipped: false });
    expect(await tickJobs(project.id)).toEqual([]);
    const { tickCount } = await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } });
    // Archived: its nudge is dropped without a tick and without a re-queue.
    await archiveProject(project);
    expect(await processTick({ projectId: project.id, reason: "run succeeded" }, { name: "nudge" } as Job)).toEqual({ skipped: "inactive" });
    expect(await tickJobs(project.id)).toEqual([]);
    expect((await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } })).tickCount).toBe(tickCount);

    // Started again, the loop has its tick back.
    const other = await createTeamWithProject({ loopEnabled: false });
    expect(await getQueue("tick").getJobScheduler(tickSchedulerId(other.project.id))).toBeUndefined();
    await changeLoopMode(other.project, "start");
    expect((await getQueue("tick").getJobScheduler(tickSchedulerId(other.project.id)))?.every).toBe(5000);
  });
});

describe("the rebuild's lock", () => {
  const key = () => redisKey("test-lock", Math.random().toString(36).slice(2));

  it("is renewed while a rebuild takes longer than its TTL, so no second worker gets it meanwhile", async () => {
    const redis = getRedis("producer");
    const lockKey = key();
    const ttl = 2000;
    const result = await withRedisLock(redis, lockKey, "w-slow", ttl, async (lock) => {
      const start = Date.now();
      // Two and a half TTLs of work, measured by the work itself (not a sleep the assertion depends on).
      await waitUntil("longer than the lock TTL of work", async () => Date.now() - start > 2.5 * ttl, 30_000);
      expect(await redis.get(lockKey)).toBe("w-slow");
      expect(await withRedisLock(redis, lockKey, "w-other", ttl, async () => "ran")).toBeNull();
      expect(lock.held()).toBe(true);
      return "done";
    });
    expect(result).toBe("done");
    expect(await redis.exists(lockKey)).toBe(0);
  });

  it("of a worker that died expires, and a holder whose lock was taken over stops and deletes nothing", async () => {
    const redis = getRedis("producer");
    const lockKey = key();
    await redis.set(lockKey, "w-dead", "PX", 500);
    expect(await withRedisLock(redis, lockKey, "w-live", 500, async () => "ran")).toBeNull();
    await waitUntil("the dead worker's lock to expire", async () => (await redis.exists(lockKey)) === 0);
    expect(await withRedisLock(redis, lockKey, "w-live", 500, async () => "ran")).toBe("ran");

    // Taken over (as after an expiry during a stall): held() turns false, the new holder's key stays.
    const outcome = await withRedisLock(redis, lockKey, "w-stalled", 600, async (lock) => {
      await redis.set(lockKey, "w-next", "PX", 60_000);
      await waitUntil("the renewal to notice", async () => !lock.held());
      return "stopped";
    });
    expect(outcome).toBe("stopped");
    expect(await redis.get(lockKey)).toBe("w-next");
  });

  it("a rebuild whose lock was lost midway writes no marker and says so", async () => {
    await getRedis("producer").del(redisKey("schedules", "built"));
    // Another worker holds it: this one does nothing.
    await getRedis("producer").set(redisKey("schedules", "lock"), "someone-else", "PX", 60_000);
    expect(await ensureTickSchedules({ force: true })).toBeNull();
    expect(await getRedis("producer").exists(redisKey("schedules", "built"))).toBe(0);
    await getRedis("producer").del(redisKey("schedules", "lock"));
    expect(await ensureTickSchedules({ force: true })).not.toBeNull();
    expect(await getRedis("producer").exists(redisKey("schedules", "built"))).toBe(1);
  });
});
