import { runTick } from "@/lib/loop/tick";
import { enqueueTick } from "@/lib/queues";
import type { Processor } from "@/workers/manager";

export const processTick: Processor<"tick"> = async ({ projectId, reason }, job) => {
  // Only the scheduler's own tick backs the period off; a nudge is an event and resets it.
  const result = await runTick(projectId, undefined, { scheduled: job.name === "scheduled" });
  // A nudge that found another tick of the project running must not be lost: it comes
  // back right after, so what it announced is seen by a tick that starts after it. An
  // archived project's nudge is dropped: it costs nothing from then on.
  if (result.skipped === "locked" && job.name === "nudge") await enqueueTick(projectId, reason, { retryInMs: 100 });
  return result;
};
