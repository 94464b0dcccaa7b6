import { getDb } from "@/lib/db";

/**
 * Extends a live run's lease for its holder (a spawn worker, or a remote runner as
 * `runner:<agent id>`). False when the run is no longer ours (lost, cancelled, finished).
 */
export async function renewLease(runId: string, holder: string, ttlMs: number, now = new Date()): Promise<boolean> {
  const n = await getDb().run.updateMany({
    where: { id: runId, workerId: holder, status: { in: ["starting", "running"] } },
    data: { leaseExpiresAt: new Date(now.getTime() + ttlMs), heartbeatAt: now },
  });
  return n.count === 1;
}

/**
 * Renews a run's lease while its agent lives. A renewal that matches no row means the
 * run was taken from us (marked lost, cancelled): the caller stops its agent.
 */
export function startLeaseRenewal(input: { runId: string; workerId: string; ttlMs: number; everyMs: number; onLost: () => void }) {
  const renew = async () => {
    if (!(await renewLease(input.runId, input.workerId, input.ttlMs))) input.onLost();
  };
  const timer = setInterval(() => void renew().catch(() => {}), input.everyMs);
  return () => clearInterval(timer);
}
