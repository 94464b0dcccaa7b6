import { getLogger } from "@/lib/log";
import { isDatabaseUnreachable } from "@/lib/db/unreachable";

const MAX_RETRY_EXPONENT = 4;

/** The wait after a prompt's n-th failed attempt: base × 2^(n−1), capped like the planner's backoff (× 16). */
export function retryBackoffMs(baseMs: number, failedAttempts: number): number {
  return baseMs * 2 ** Math.min(Math.max(failedAttempts - 1, 0), MAX_RETRY_EXPONENT);
}

// Long enough for a Postgres restart or failover; past it the run's lease lapses and its
// prompt is re-run on the same branch, which keeps the committed work.
export const POSTGRES_OUTAGE_MS = 10 * 60_000;

/**
 * Calls `work` until it succeeds, waiting 200 ms doubling to 2 s between tries, while
 * `retry(err)` holds, the signal is not aborted and `giveUpAfterMs` has not passed.
 * `onWait` hears the first failure, `onRecovered` a success after one.
 */
export async function retryWithBackoff<T>(work: () => Promise<T>, opts: {
  retry: (err: unknown) => boolean; signal?: AbortSignal; giveUpAfterMs: number; onWait: (err: Error) => void; onRecovered: () => void;
}): Promise<T> {
  const deadline = Date.now() + opts.giveUpAfterMs;
  for (let delay = 200, waited = false; ; delay = Math.min(delay * 2, 2000)) {
    try {
      const result = await work();
      if (waited) opts.onRecovered();
      return result;
    } catch (err) {
      if (!opts.retry(err) || opts.signal?.aborted || Date.now() > deadline) throw err;
      if (!waited) opts.onWait(err as Error);
      waited = true;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/**
 * A run's step that needs Postgres waits out a restart or failover with the lease kept: an
 * outage is not the prompt's failure, so it must neither fail the run nor spend an attempt.
 * Any other error (Postgres answered) is thrown at once.
 */
export function whenPostgresAnswers<T>(work: () => Promise<T>, ctx: { runId: string; step: string; signal?: AbortSignal }): Promise<T> {
  const log = getLogger("runs");
  return retryWithBackoff(work, {
    retry: isDatabaseUnreachable, signal: ctx.signal, giveUpAfterMs: POSTGRES_OUTAGE_MS,
    onWait: (err) => log.warn({ runId: ctx.runId, step: ctx.step, err: err.message }, "run waits for Postgres (lease kept)"),
    onRecovered: () => log.info({ runId: ctx.runId, step: ctx.step }, "run goes on: Postgres answers again"),
  });
}
