import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/log";
import { sweepRuns } from "@/lib/runs/reconcile";
import { ensureTickSchedules } from "@/lib/loop/schedules";
import { relayOutbox } from "@/lib/queues";
import { scanThreads } from "@/lib/lead/scan";
import { leadLoopNow } from "@/lib/lead/clock";
import { collectPools, collectWorktrees } from "@/lib/runs/worktree-gc";
import { sendSlackNotices } from "@/lib/slack/notices";
import { forwardNoticesToSlack } from "@/lib/slack/system-notices";
import { sendGithubNotices } from "@/lib/github/mention-notices";
import { pruneDeliveries } from "@/lib/webhooks/retention";

// A queued run or merge whose job has not started this long after it should have is enqueued again.
const REQUEUE_AFTER_MS = 15_000;
const LEAD_SCAN_MS = 1_000;
// Slack threads hear of a run, a pull request or a failure within a few seconds; no faster is needed.
const SLACK_NOTICES_MS = 3_000;
const DELIVERY_RETENTION_SWEEP_MS = 60 * 60_000;

/** Repeats `work` every `ms` (never overlapping itself); one log line per kind of failure, not one per try. */
function every(name: string, ms: number, work: () => Promise<unknown>) {
  const log = getLogger(`maintenance:${name}`);
  let timer: NodeJS.Timeout | undefined;
  let lastError: string | null = null;
  let stopped = false;
  const loop = async () => {
    try {
      await work();
      if (lastError) log.info(`${name} works again`);
      lastError = null;
    } catch (err) {
      const message = (err as Error).message;
      if (message !== lastError) log.warn({ err: message }, `${name} failed (retrying)`);
      lastError = message;
    }
    if (!stopped) timer = setTimeout(loop, ms);
  };
  timer = setTimeout(loop, 0);
  return () => { stopped = true; clearTimeout(timer); };
}

/**
 * What every worker process does besides its queues: the fleet-wide lease sweep, the
 * rebuild of tick schedules Redis forgot, the outbox relay and the lead agents' loop, all from Postgres, so none
 * depends on a project's own tick still being scheduled or on Redis having kept anything.
 */
export function startMaintenance(): () => void {
  const env = getEnv();
  const stops = [
    every("sweep", env.SWEEP_INTERVAL_MS, async () => {
      await sweepRuns({ leaseTtlMs: env.LEASE_TTL_MS, requeueAfterMs: REQUEUE_AFTER_MS, maxLostRuns: env.LOST_RUNS_MAX });
      await ensureTickSchedules({ force: false });
    }),
    every("schedules", env.SCHEDULE_CHECK_MS, () => ensureTickSchedules({ force: true })),
    every("outbox relay", env.OUTBOX_RELAY_MS, () => relayOutbox()),
    // The lead's loop: a pass a second, as the conversation's pace needs and no faster.
    every("lead", LEAD_SCAN_MS, () => scanThreads(leadLoopNow())),
    every("slack notices", SLACK_NOTICES_MS, () => sendSlackNotices()),
    every("slack alerts", SLACK_NOTICES_MS, () => forwardNoticesToSlack()),
    // Issues and pull requests that asked for work hear how it goes at the same pace.
    every("github notices", SLACK_NOTICES_MS, () => sendGithubNotices()),
    every("worktree collector", env.WORKTREE_GC_MS, async () => {
      await collectWorktrees({ now: new Date(), retentionMs: env.WORKTREE_RETENTION_DAYS * 86_400_000 });
      await collectPools({ now: new Date(), idleMs: env.WORKTREE_POOL_IDLE_MS });
    }),
    every("webhook delivery retention", DELIVERY_RETENTION_SWEEP_MS, () => pruneDeliveries(env.WEBHOOK_RETENTION_DAYS * 86_400_000)),
  ];
  return () => stops.forEach((stop) => stop());
}
