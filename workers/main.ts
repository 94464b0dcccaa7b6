import type { Worker } from "bullmq";
import { getEnv, EnvError } from "@/lib/env";
import { getLogger } from "@/lib/log";
import { closeDb } from "@/lib/db";
import { closeRedis } from "@/lib/redis/connections";
import { closeQueues, sentOrdersDeleted } from "@/lib/queues";
import { startWorker } from "@/workers/manager";
import { processTick } from "@/workers/tick";
import { processSpawn, spawnShutdown } from "@/workers/spawn";
import { processMerge } from "@/workers/merge";
import { processGithub } from "@/workers/github";
import { processSlack } from "@/workers/slack";
import { getSandboxStatus, reportSandboxStatus } from "@/lib/sandbox/status";
import { startMaintenance } from "@/workers/maintenance";
import { migrateReceipts } from "@/lib/lead/migrate";
import { waitForDependencies } from "@/lib/health";
import { startWebhookListener } from "@/lib/webhooks/listener";
import { useSpawner } from "@/lib/spawner";
import { poolFillsSettled } from "@/lib/runs/worktree-pool";
import { closeSpareHolders, keepSpareHolders } from "@/lib/sandbox/network-holder";

async function main() {
  const env = getEnv();
  useSpawner();
  const log = getLogger("workers");
  let closing = false;
  let workers: Worker[] = [];
  let stopMaintenance = () => {};
  let listener: Awaited<ReturnType<typeof startWebhookListener>> | undefined;
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // No queue is consumed before both dependencies answer: a job taken now would only fail.
  await waitForDependencies((line) => log.info(line));
  if (closing) return;
  // Every start proves the agent sandbox before taking work; runs are refused if it fails.
  await reportSandboxStatus();
  if (closing) return;
  // A sandbox's network is made ahead of the run that joins it (lib/sandbox/network-holder.ts).
  const sandbox = await getSandboxStatus();
  keepSpareHolders(sandbox.ok ? sandbox.host : null, env.SANDBOX_SPARE_NETWORKS);
  workers = [
    startWorker("tick", processTick, { concurrency: env.TICK_CONCURRENCY }),
    startWorker("spawn", processSpawn, {
      concurrency: env.SPAWN_CONCURRENCY,
      limiter: { max: env.SPAWN_RATE_MAX, duration: env.SPAWN_RATE_DURATION_MS },
    }),
    startWorker("merge", processMerge, { concurrency: 2 }),
    startWorker("github", processGithub, { concurrency: env.GITHUB_CONCURRENCY }),
    startWorker("slack", processSlack, { concurrency: env.SLACK_CONCURRENCY }),
  ];
  // Before the lead's loop first looks: threads older than read receipts must not all wake at once.
  await migrateReceipts();
  stopMaintenance = startMaintenance();
  if (env.WEBHOOK_LISTENER_PORT) {
    listener = await startWebhookListener(env.WEBHOOK_LISTENER_PORT, env.WEBHOOK_LISTENER_HOST);
    log.info({ port: env.WEBHOOK_LISTENER_PORT, host: env.WEBHOOK_LISTENER_HOST }, "webhook listener started");
  }
  log.info({ queues: workers.map((w) => w.name) }, "workers started");

  async function shutdown(signal: string) {
    if (closing) return;
    closing = true;
    log.info({ signal }, "shutting down");
    stopMaintenance();
    // No new deliveries; those being answered finish before the connections below close.
    await listener?.stop(10_000);
    spawnShutdown.abort("shutdown");
    // Workers first (in-flight jobs finish or are handed back), then Redis, then Prisma.
    await Promise.allSettled(workers.map((w) => w.close()));
    // A worktree pool's fill cut short would hold its lock until the lock goes stale (minutes).
    await poolFillsSettled();
    // The ready sandbox network's bridges would die with us; its sockets' folder would stay.
    await closeSpareHolders();
    // The listener's last sent work orders are deleted before the pool closes, not left to a relay.
    await sentOrdersDeleted();
    await closeQueues();
    await closeRedis();
    await closeDb();
    process.exit(0);
  }
}

main().catch((err) => {
  if (err instanceof EnvError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
