import type { Redis } from "ioredis";
import { getLogger } from "@/lib/log";

// Compare-and-act on the holder's token, so a lock that expired and was taken by another
// worker is neither extended nor deleted by its former holder.
const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

export interface HeldLock {
  /** False once the lock was found taken by someone else or could not be renewed in time. */
  held(): boolean;
}

/**
 * Runs `work` under a Redis lock, or returns null at once when another holder has it. The
 * lock is renewed every third of its TTL while `work` runs, however long that takes, and
 * expires one TTL after its holder died. `work` checks held() before each write, so a
 * holder that lost its lock (a long stall, Redis restarted) stops instead of racing the next.
 */
export async function withRedisLock<T>(redis: Redis, key: string, token: string, ttlMs: number, work: (lock: HeldLock) => Promise<T>): Promise<T | null> {
  if ((await redis.set(key, token, "PX", ttlMs, "NX")) !== "OK") return null;
  let held = true;
  let renewedAt = Date.now();
  const timer = setInterval(() => {
    redis.eval(RENEW, 1, key, token, String(ttlMs)).then((ok) => {
      if (ok === 1) renewedAt = Date.now();
      else held = false;
    }, (err: Error) => getLogger("lock").warn({ key, err: err.message }, "lock not renewed"));
  }, Math.max(50, Math.floor(ttlMs / 3)));
  const lock: HeldLock = { held: () => held && Date.now() - renewedAt < ttlMs };
  try {
    return await work(lock);
  } finally {
    clearInterval(timer);
    await redis.eval(RELEASE, 1, key, token).catch(() => {});
  }
}
