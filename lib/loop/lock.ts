import { getDb } from "@/lib/db";

// At most one tick of a project runs at a time, whatever the number of worker processes:
// a lease on the LoopState row, taken with one conditional update. Short, so a worker
// killed mid-tick blocks its project's ticks briefly; the claim re-checks the limits
// under a row lock, so even overlapping ticks cannot exceed them.
const TICK_LOCK_MS = 10_000;

export async function acquireTickLock(projectId: string, owner: string): Promise<boolean> {
  const n = await getDb().$executeRaw`
    UPDATE "LoopState" SET "tickLockedUntil" = now() + make_interval(secs => ${TICK_LOCK_MS / 1000}), "tickLockedBy" = ${owner}
    WHERE "projectId" = ${projectId} AND ("tickLockedUntil" IS NULL OR "tickLockedUntil" < now())`;
  return n === 1;
}

export async function releaseTickLock(projectId: string, owner: string): Promise<void> {
  await getDb().$executeRaw`
    UPDATE "LoopState" SET "tickLockedUntil" = NULL, "tickLockedBy" = NULL
    WHERE "projectId" = ${projectId} AND "tickLockedBy" = ${owner}`;
}
