import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { workerId } from "@/lib/worker-id";
import { getRedis, redisKey } from "@/lib/redis/connections";
import { withRedisLock } from "@/lib/redis/lock";
import { enqueueTick, getQueue, removeTickScheduler, syncTickScheduler, tickPeriodMs, tickSchedulerId } from "@/lib/queues";

// Renewed while a rebuild runs, so a slow one is never joined by a second worker; a dead
// holder's lock is gone one TTL later.
export const SCHEDULE_LOCK_MS = 30_000;

/** Thrown when the rebuild's lock was lost midway: the next check starts over under a fresh lock. */
export class LockLostError extends Error {}

/**
 * Rebuilds from Postgres what Redis may have forgotten (FLUSHALL, a restart without
 * persistence, a failover): every active project's periodic tick at its backed-off period, and no tick for an
 * archived project or a stopped loop (they cost nothing). A marker key tells whether Redis
 * still holds what the last rebuild wrote; without `force` nothing is read unless it is gone.
 * A Redis lock lets one worker do it: concurrent upserts of one scheduler have produced
 * duplicates (bullmq #2988, #3085). After a loss every project is nudged, since its run-end
 * and merge wake-ups may be gone.
 */
export async function ensureTickSchedules(opts: { force: boolean; lockMs?: number }): Promise<number | null> {
  if (getEnv().TICK_SCHEDULES === "off") return null;
  const redis = getRedis("producer");
  const marker = redisKey("schedules", "built");
  const lost = !(await redis.exists(marker));
  if (!lost && !opts.force) return null;
  return withRedisLock(redis, redisKey("schedules", "lock"), workerId(), opts.lockMs ?? SCHEDULE_LOCK_MS, async (lock) => {
    const mine = () => { if (!lock.held()) throw new LockLostError("schedule rebuild lock lost"); };
    const projects = await getDb().project.findMany({
      where: { archivedAt: null, loopState: { mode: { not: "stopped" } } },
      select: { id: true, settings: { select: { tickIntervalMs: true } }, loopState: { select: { tickBackoff: true } } },
    });
    const existing = new Map((await getQueue("tick").getJobSchedulers(0, -1)).map((s) => [s.key, s.every]));
    let changed = 0;
    for (const p of projects) {
      const base = p.settings?.tickIntervalMs;
      const every = base && tickPeriodMs(base, p.loopState?.tickBackoff ?? 0);
      mine();
      if (every && existing.get(tickSchedulerId(p.id)) !== every) {
        // Re-read at the write: a loop stopped or a project archived since the list was read
        // keeps no tick (its own schedule message may already have run).
        await syncTickScheduler(p.id);
        changed++;
      }
      existing.delete(tickSchedulerId(p.id));
      if (lost) await enqueueTick(p.id, "schedules rebuilt");
    }
    for (const key of existing.keys()) {
      mine();
      if (key.startsWith(tickSchedulerId(""))) await removeTickScheduler(key.slice(tickSchedulerId("").length));
    }
    mine();
    await redis.set(marker, String(Date.now()));
    return changed;
  });
}
