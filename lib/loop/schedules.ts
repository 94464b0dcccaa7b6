import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { workerId } from "@/lib/worker-id";
import { getRedis, redisKey } from "@/lib/redis/connections";
import { enqueueTick, getQueue, removeTickScheduler, tickSchedulerId, upsertTickScheduler } from "@/lib/queues";

const LOCK_MS = 30_000;

/**
 * Rebuilds from Postgres what Redis may have forgotten (FLUSHALL, a restart without
 * persistence, a failover): every active project's periodic tick, and no tick for an
 * archived one. A marker key tells whether Redis still holds what the last rebuild wrote;
 * without `force` nothing is read unless it is gone. A Redis lock lets one worker do it:
 * concurrent upserts of one scheduler have produced duplicates (bullmq #2988, #3085).
 * After a loss every project is nudged, since its run-end and merge wake-ups may be gone.
 */
export async function ensureTickSchedules(opts: { force: boolean }): Promise<number | null> {
  if (getEnv().TICK_SCHEDULES === "off") return null;
  const redis = getRedis("producer");
  const marker = redisKey("schedules", "built");
  const lost = !(await redis.exists(marker));
  if (!lost && !opts.force) return null;
  const lock = redisKey("schedules", "lock");
  const me = workerId();
  if ((await redis.set(lock, me, "PX", LOCK_MS, "NX")) !== "OK") return null;
  try {
    const projects = await getDb().project.findMany({ where: { archivedAt: null }, select: { id: true, settings: { select: { tickIntervalMs: true } } } });
    const existing = new Map((await getQueue("tick").getJobSchedulers(0, -1)).map((s) => [s.key, s.every]));
    let changed = 0;
    for (const p of projects) {
      const every = p.settings?.tickIntervalMs;
      if (every && existing.get(tickSchedulerId(p.id)) !== every) {
        await upsertTickScheduler(p.id, every);
        changed++;
      }
      existing.delete(tickSchedulerId(p.id));
      if (lost) await enqueueTick(p.id, "schedules rebuilt");
    }
    for (const key of existing.keys()) {
      if (key.startsWith(tickSchedulerId(""))) await removeTickScheduler(key.slice(tickSchedulerId("").length));
    }
    await redis.set(marker, String(Date.now()));
    return changed;
  } finally {
    const holder = await redis.get(lock);
    if (holder === me) await redis.del(lock);
  }
}
