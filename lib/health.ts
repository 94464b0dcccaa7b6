import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { getRedis, readyRedis } from "@/lib/redis/connections";

export interface Health {
  ok: boolean;
  postgres: "up" | "down";
  redis: "up" | "down";
  errors: string[];
}

async function probe(name: string, fn: () => Promise<unknown>, timeoutMs: number): Promise<string | null> {
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)),
    ]);
    return null;
  } catch (err) {
    return `${name}: ${(err as Error).message}`;
  }
}

export async function checkHealth(timeoutMs = 2000): Promise<Health> {
  const [pg, redis] = await Promise.all([
    probe("postgres", () => getDb().$queryRaw`SELECT 1`, timeoutMs),
    probe("redis", async () => (await readyRedis(getRedis("producer"), timeoutMs)).ping(), timeoutMs),
  ]);
  return {
    ok: !pg && !redis,
    postgres: pg ? "down" : "up",
    redis: redis ? "down" : "up",
    errors: [pg, redis].filter((e): e is string => e !== null),
  };
}

/** host:port of a service URL: what start-up may print (never the credentials). */
export function serviceAddress(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol.startsWith("redis") ? "6379" : "5432")}`;
}

async function waitFor(name: string, url: string, check: () => Promise<unknown>, say: (line: string) => void) {
  for (let delay = 250, waiting = false; ; delay = Math.min(delay * 2, 5000)) {
    try {
      await check();
      if (waiting) say(`${name} at ${serviceAddress(url)} answers`);
      return;
    } catch {
      if (!waiting) say(`waiting for ${name} at ${serviceAddress(url)}…`);
      waiting = true;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/**
 * Start-up: waits, retrying with backoff, until Postgres and Redis both answer, saying
 * once per dependency what it waits for. The producer connection is ready afterwards, so
 * a first announce or enqueue does not meet a connection still opening.
 */
export async function waitForDependencies(say: (line: string) => void): Promise<void> {
  const env = getEnv();
  await Promise.all([
    waitFor("Postgres", env.DATABASE_URL, () => getDb().$queryRaw`SELECT 1`, say),
    waitFor("Redis", env.REDIS_URL, async () => (await readyRedis(getRedis("producer"), 2000)).ping(), say),
  ]);
}
