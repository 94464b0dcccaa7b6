import { getLogger } from "@/lib/log";
import { completeRun, type RunOutcome } from "@/lib/runs/complete";
import { POSTGRES_OUTAGE_MS, retryWithBackoff } from "@/lib/runs/backoff";

/**
 * Records a run's outcome, retrying with backoff while Postgres cannot take it; the caller
 * keeps renewing the lease meanwhile, so finished work is completed, never re-run. A
 * shutdown stops the retries (the lease then lapses and the prompt is re-run on its branch).
 */
export function reportOutcome(runId: string, outcome: RunOutcome, signal?: AbortSignal): Promise<boolean> {
  const log = getLogger("runs");
  return retryWithBackoff(() => completeRun(runId, outcome), {
    retry: () => true, signal, giveUpAfterMs: POSTGRES_OUTAGE_MS,
    onWait: (err) => log.warn({ runId, err: err.message }, "run outcome not recorded yet (retrying while the lease is kept)"),
    onRecovered: () => log.info({ runId }, "run outcome recorded after retrying"),
  });
}
