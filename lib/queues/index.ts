export * from "@/lib/queues/names";
export * from "@/lib/queues/producers";
export * from "@/lib/queues/github";
export { getQueue, closeQueues } from "@/lib/queues/queues";
export { publishOutboxBatched, sentOrdersDeleted } from "@/lib/queues/outbox-batch";
export { recordOutbox, publishOutbox, relayOutbox, sendViaOutbox, syncTickScheduler, type OutboxMessage, type OutboxRow } from "@/lib/queues/outbox";
export { tickPeriodMs, nextTickBackoff, TICK_BACKOFF_MAX_MS } from "@/lib/queues/tick-period";
