import { executeRun } from "@/lib/runs/execute";
import type { Processor } from "@/workers/manager";

// Aborted on shutdown: running agents are stopped and their prompts handed back.
export const spawnShutdown = new AbortController();

export const processSpawn: Processor<"spawn"> = async ({ runId }, job) => executeRun(runId, { signal: spawnShutdown.signal, job: { queuedAt: job.timestamp, pickedAt: job.processedOn } });
