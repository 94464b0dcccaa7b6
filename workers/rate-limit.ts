import { DelayedError, type Job } from "bullmq";
import { rateLimitWaitMs } from "@/lib/github/client";

/**
 * Runs a job's work; a GitHub rate limit longer than we wait in place puts the job to
 * sleep in Redis until GitHub's reset, without spending one of its attempts.
 */
export async function deferOnRateLimit<T>(job: Job, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const waitMs = rateLimitWaitMs(err);
    if (waitMs === null) throw err;
    await job.moveToDelayed(Date.now() + waitMs, job.token);
    throw new DelayedError();
  }
}
