export * from "@/lib/queues/names";
export * from "@/lib/queues/producers";
export { getQueue, closeQueues } from "@/lib/queues/queues";
