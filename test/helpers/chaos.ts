// Chaos tests run on private Postgres and Redis (scripts/chaos-services.ts), so they may stop,
// restart or flush them without touching the shared services other test files use. Call
// startChaosServices() before any lib call: it points DATABASE_URL and REDIS_URL (read lazily
// by lib/env.ts) at the private pair, and stops it after the file.
import { afterAll } from "vitest";
import { startChaosServices as start, type ChaosServices } from "@/scripts/chaos-services";

export async function startChaosServices(): Promise<ChaosServices> {
  const chaos = await start();
  Object.assign(process.env, { DATABASE_URL: chaos.databaseUrl, REDIS_URL: chaos.redisUrl });
  afterAll(async () => {
    const [{ closeQueues }, { closeRedis }, { closeDb }] = await Promise.all([
      import("@/lib/queues"), import("@/lib/redis/connections"), import("@/lib/db"),
    ]);
    await closeQueues();
    await closeRedis();
    await closeDb();
    chaos.close();
  });
  return chaos;
}
