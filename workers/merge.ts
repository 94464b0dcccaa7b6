import { mergeRun } from "@/lib/runs/merge";
import type { Processor } from "@/workers/manager";

export const processMerge: Processor<"merge"> = async ({ runId }) => mergeRun(runId);
