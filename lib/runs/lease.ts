import { getDb } from "@/lib/db";

/**
 * Renews a run's lease while its agent lives. A renewal that matches no row means the
 * run was taken from us (marked lost, cancelled): the caller stops its agent.
 */
export function startLeaseRenewal(input: { runId: string; workerId: string; ttlMs: number; everyMs: number; onLost: () => void }) {
  const renew = async () => {
    const now = new Date();
    const n = await getDb().run.updateMany({
      where: { id: input.runId, workerId: input.workerId, status: { in: ["starting", "running"] } },
      data: { leaseExpiresAt: new Date(now.getTime() + input.ttlMs), heartbeatAt: now },
    });
    if (n.count === 0) input.onLost();
  };
  const timer = setInterval(() => void renew().catch(() => {}), input.everyMs);
  return () => clearInterval(timer);
}
