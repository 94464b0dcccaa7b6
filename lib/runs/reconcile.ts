import { getDb, getPool } from "@/lib/db";
import { recordAudit, SYSTEM } from "@/lib/audit/record";
import { enqueueMerge, enqueueSpawn, publishOutbox, recordOutbox } from "@/lib/queues";
import { recordActivity } from "@/lib/activity/record";
import { clearSpawnCooldown, returnLostRunPrompt } from "@/lib/runs/finish-prompt";

export interface SweepOptions {
  /** After Postgres (re)starts, leases get this long to be renewed before any counts as expired. */
  leaseTtlMs: number;
  /** A queued run or a pending merge whose job should have run by now is enqueued again. */
  requeueAfterMs: number;
  maxLostRuns: number;
}

interface Stale { id: string; projectId: string; teamId: string; status: string; promptId: string | null }

// One statement for the whole fleet, independent of any project's tick (which Redis may
// have forgotten). Leases are compared on the database's clock. A lease that expired
// while Postgres was down is not a dead worker: supervisors get one TTL to renew after a
// restart (pg_postmaster_start_time), so an outage does not kill every running agent.
const STALE_RUNS = `
  SELECT r.id, r."projectId", p."teamId", r.status, r."promptId"
  FROM "Run" r JOIN "Project" p ON p.id = r."projectId"
  WHERE (r.status IN ('starting', 'running') AND r."leaseExpiresAt" < timezone('UTC', now())
          AND now() > pg_postmaster_start_time() + make_interval(secs => $1::float8 / 1000))
     OR (r.status = 'queued' AND NOT r.remote AND r."queuedAt" < timezone('UTC', now()) - make_interval(secs => $2::float8 / 1000))
     OR (r.status = 'succeeded' AND r."mergeStatus" = 'pending'
          AND r."finishedAt" < timezone('UTC', now()) - make_interval(secs => $2::float8 / 1000))
  LIMIT 500`;

/**
 * The fleet-wide sweeper (seed 000's agent-liveness check, with leases): a run whose lease
 * expired is lost, its slot and cooldown freed, its prompt back to pending without spending
 * an attempt; a queued run or a pending merge whose job vanished is enqueued again.
 * Every worker sweeps; each change is a conditional update, so two sweeps never double up.
 */
export async function sweepRuns(opts: SweepOptions): Promise<{ lost: number; requeued: number }> {
  const { rows } = await getPool().query<Stale>(STALE_RUNS, [opts.leaseTtlMs, opts.requeueAfterMs]);
  let lost = 0;
  // Leases first: they need only Postgres, and a requeue may fail while Redis is away.
  for (const run of rows) if (run.status !== "queued" && run.status !== "succeeded" && (await markRunLost(run, opts.maxLostRuns))) lost++;
  // A run found expired but renewed or finished before its update is neither lost nor requeued.
  let requeued = 0;
  for (const run of rows) {
    if (run.status === "queued") await enqueueSpawn(run.id, { again: true });
    else if (run.status === "succeeded") await enqueueMerge(run.id, { again: true });
    else continue;
    requeued++;
  }
  return { lost, requeued };
}

async function markRunLost(run: Stale, maxLostRuns: number): Promise<boolean> {
  const now = new Date();
  const marked = await getDb().$transaction(async (tx) => {
    const n = await tx.run.updateMany({
      where: { id: run.id, status: { in: ["starting", "running"] }, leaseExpiresAt: { lt: now } },
      data: { status: "lost", finishedAt: now, error: "lease expired: the worker running this agent stopped renewing it" },
    });
    if (n.count !== 1) return null;
    const prompt = run.promptId ? await returnLostRunPrompt(tx, run.promptId, maxLostRuns) : null;
    await clearSpawnCooldown(tx, run.projectId);
    await recordAudit({ teamId: run.teamId, by: SYSTEM, action: "run.lost", target: { type: "run", id: run.id }, before: { status: run.status }, after: { status: "lost", promptStatus: prompt?.status } }, tx);
    await tx.apiToken.updateMany({ where: { runId: run.id, revokedAt: null }, data: { revokedAt: now } });
    const outbox = await recordOutbox(tx, [{ kind: "tick", projectId: run.projectId, reason: "run lost" }]);
    return { prompt, outbox };
  });
  if (!marked) return false;
  const { prompt, outbox } = marked;
  const next = !prompt ? "" : prompt.status === "failed" ? `; prompt failed: ${prompt.failureLog}` : "; prompt returned to the queue";
  await recordActivity({ id: run.projectId, teamId: run.teamId }, "taskFailed", `Run ${run.id} lost: lease expired${next}`, {
    runId: run.id, promptId: run.promptId ?? undefined,
  });
  await publishOutbox(outbox);
  return true;
}
