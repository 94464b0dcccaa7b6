import { getDb } from "@/lib/db";
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
