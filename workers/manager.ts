import { Worker, UnrecoverableError, type Job, type WorkerOptions } from "bullmq";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/log";
import { createRedis } from "@/lib/redis/connections";
import { queuePayloads, type QueueName, type QueuePayload } from "@/lib/queues";

export type Processor<Q extends QueueName> = (data: QueuePayload<Q>, job: Job) => Promise<unknown>;

// Lost locks are found in ~10 s instead of BullMQ's default ~60 s.
const baseOptions = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 3 };

export function startWorker<Q extends QueueName>(
  name: Q,
  processor: Processor<Q>,
  options: Partial<WorkerOptions> = {},
): Worker {
  const log = getLogger(`worker:${name}`);
  const worker = new Worker(
    name,
    async (job: Job) => {
      const parsed = queuePayloads[name].safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`bad ${name} payload: ${parsed.error.message}`);
      return processor(parsed.data as QueuePayload<Q>, job);
    },
    {
      ...baseOptions,
      ...options,
      connection: createRedis("worker"),
      prefix: getEnv().REDIS_PREFIX,
    },
  );
  worker.on("failed", (job, err) => log.error({ jobId: job?.id, err: err.message }, "job failed"));
  worker.on("error", (err) => log.error({ err: err.message }, "worker error"));
  return worker;
}
