import { Redis, type RedisOptions } from "ioredis";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/log";

// BullMQ's advice: producers fail fast when Redis is away (the request answers an
// error instead of hanging), workers and blocking readers retry forever.
export type RedisRole = "producer" | "worker" | "reader";

const roleOptions: Record<RedisRole, RedisOptions> = {
  producer: { enableOfflineQueue: false, maxRetriesPerRequest: 1 },
  worker: { maxRetriesPerRequest: null },
  reader: { maxRetriesPerRequest: null },
};

const holder = globalThis as unknown as { __ringmasterRedis?: Map<RedisRole, Redis> };

export function createRedis(role: RedisRole, url = getEnv().REDIS_URL): Redis {
  const conn = new Redis(url, { ...roleOptions[role], lazyConnect: false, connectionName: `ringmaster-${role}` });
  // ioredis reconnects by itself; one line per outage is enough (no stack per retry).
  let reported = false;
  conn.on("error", (err) => {
    if (reported) return;
    reported = true;
    getLogger("redis").warn({ role, err: err.message }, "Redis connection error (retrying)");
  });
  conn.on("ready", () => { reported = false; });
  return conn;
}

/** One shared connection per role per process. */
export function getRedis(role: RedisRole): Redis {
  const map = (holder.__ringmasterRedis ??= new Map());
  let conn = map.get(role);
  if (!conn) {
    conn = createRedis(role);
    map.set(role, conn);
  }
  return conn;
}

export async function closeRedis(): Promise<void> {
  const map = holder.__ringmasterRedis;
  holder.__ringmasterRedis = undefined;
  if (!map) return;
  await Promise.all([...map.values()].map((c) => c.quit().catch(() => c.disconnect())));
}

/** Waits until a producer connection is ready (enableOfflineQueue is off). */
export async function readyRedis(conn: Redis, timeoutMs = 5000): Promise<Redis> {
  if (conn.status === "ready") return conn;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis did not become ready within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => { cleanup(); resolve(); };
    const cleanup = () => { clearTimeout(timer); conn.off("ready", onReady); };
    conn.on("ready", onReady);
  });
  return conn;
}

/** How long a command waits for a producer connection still opening (a process just started). */
export const PRODUCER_OPEN_WAIT_MS = 2000;

/** ioredis' statuses of a connection that lost Redis (not one still opening or open). */
export function isKnownDown(status: string): boolean {
  return status === "reconnecting" || status === "close" || status === "end";
}

/**
 * The producer connection once it can take a command: a connection known to be down fails at
 * once (a request must not wait for Redis), one still opening (a process just started) gets
 * `waitMs` — with the offline queue off, a command sent before then fails.
 */
export async function readyProducer(waitMs = PRODUCER_OPEN_WAIT_MS): Promise<Redis> {
  const redis = getRedis("producer");
  if (isKnownDown(redis.status)) throw new Error(`Redis is unreachable (${redis.status})`);
  return readyRedis(redis, waitMs);
}

export function redisKey(...parts: string[]): string {
  return [getEnv().REDIS_PREFIX, ...parts].join(":");
}
