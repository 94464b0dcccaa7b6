import { getDb } from "@/lib/db";

// At most one tick of a project runs at a time, whatever the number of worker processes:
// a lease on the LoopState row (taken in lockAndLoad). Short, so a worker killed mid-tick
// blocks its project's ticks briefly; the claim re-checks the limits under a row lock, so
// even overlapping ticks cannot exceed them.
export const TICK_LOCK_MS = 10_000;

/** Releases the lock of a tick that ended early (the normal end releases it in its last update). */
export async function releaseTickLock(projectId: string, owner: string): Promise<void> {
  await getDb().$executeRaw`
    UPDATE "LoopState" SET "tickLockedUntil" = NULL, "tickLockedBy" = NULL
    WHERE "projectId" = ${projectId} AND "tickLockedBy" = ${owner}`;
}
