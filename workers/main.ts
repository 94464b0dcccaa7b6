import { getEnv, EnvError } from "@/lib/env";
import { getLogger } from "@/lib/log";
import { closeDb } from "@/lib/db";
import { closeRedis } from "@/lib/redis/connections";
import { closeQueues } from "@/lib/queues";
import { startWorker } from "@/workers/manager";
import { processTick } from "@/workers/tick";
import { processSpawn, spawnShutdown } from "@/workers/spawn";
import { processMerge } from "@/workers/merge";
import { processGithub } from "@/workers/github";

async function main() {
  const env = getEnv();
  const log = getLogger("workers");
  const workers = [
    startWorker("tick", processTick, { concurrency: env.TICK_CONCURRENCY }),
    startWorker("spawn", processSpawn, {
      concurrency: env.SPAWN_CONCURRENCY,
      limiter: { max: env.SPAWN_RATE_MAX, duration: env.SPAWN_RATE_DURATION_MS },
    }),
    startWorker("merge", processMerge, { concurrency: 2 }),
    startWorker("github", processGithub, { concurrency: env.GITHUB_CONCURRENCY }),
  ];
  log.info({ queues: workers.map((w) => w.name) }, "workers started");

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, "shutting down");
    spawnShutdown.abort("shutdown");
    // Workers first (in-flight jobs finish or are handed back), then Redis, then Prisma.
    await Promise.allSettled(workers.map((w) => w.close()));
    await closeQueues();
    await closeRedis();
    await closeDb();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err) => {
  if (err instanceof EnvError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
