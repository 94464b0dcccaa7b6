import { Queue } from "bullmq";
import { getEnv } from "@/lib/env";
import { getRedis } from "@/lib/redis/connections";
import type { QueueName, QueuePayload } from "@/lib/queues/names";

const holder = globalThis as unknown as { __ringmasterQueues?: Map<QueueName, Queue> };

const defaultJobOptions = {
  removeOnComplete: { count: 1000, age: 3600 },
  removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
};

export function getQueue<Q extends QueueName>(name: Q): Queue<QueuePayload<Q>> {
  const map = (holder.__ringmasterQueues ??= new Map());
  let queue = map.get(name);
  if (!queue) {
    queue = new Queue(name, { connection: getRedis("producer"), prefix: getEnv().REDIS_PREFIX, defaultJobOptions });
    // The shared connection reports an outage once (lib/redis/connections.ts); without a
    // listener BullMQ would print every reconnect attempt's error to the console.
    queue.on("error", () => {});
    map.set(name, queue);
  }
  return queue as Queue<QueuePayload<Q>>;
}

export async function closeQueues(): Promise<void> {
  const map = holder.__ringmasterQueues;
  holder.__ringmasterQueues = undefined;
  if (map) await Promise.all([...map.values()].map((q) => q.close()));
}
