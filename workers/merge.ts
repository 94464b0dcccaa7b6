import { mergeRun } from "@/lib/runs/merge";
import { deferOnRateLimit } from "@/workers/rate-limit";
import type { Processor } from "@/workers/manager";

// A GitHub project's "merge" pushes and opens a pull request, which can meet a rate limit.
export const processMerge: Processor<"merge"> = async ({ runId }, job) => deferOnRateLimit(job, () => mergeRun(runId));
