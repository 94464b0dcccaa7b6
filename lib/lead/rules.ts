import { Prisma } from "@/lib/db";
import { LIVE_RUN_STATUSES_SQL } from "@/lib/run-statuses";

/** A thread quiet this long after its last lead run, with nothing unread, gets one more look. */
export const IDLE_MS = 240_000;
/** More lead runs than this in LOOP_WINDOW_MS without a new person's turn pause the thread. */
export const LOOP_RUNS = 5;
export const LOOP_WINDOW_MS = 30 * 60_000;
/** A lead run's limit, and the grace it gets when a worker's result arrived in the last minute. */
export const MAX_SESSION_MS = 45 * 60_000;
export const GRACE_MS = 2 * 60_000;
export const FRESH_RESULT_MS = 60_000;

/**
 * A turn that wakes the lead: delivered and written by someone else. A worker's progress does not
 * (agents must not wake on their own chatter); its result does; the lead's and the system's never.
 * A turn that names a runner agent (@name) is that agent's to answer (its unread_mention trigger).
 */
export const WAKES = Prisma.sql`t.status = 'delivered' AND t."mentionsAgentId" IS NULL AND (t.actor IN ('person', 'monitor') OR (t.actor = 'worker' AND t.action = 'result'))`;

export const NO_LIVE_LEAD = Prisma.sql`NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."threadId" = th.id AND r.status::text IN (${Prisma.raw(LIVE_RUN_STATUSES_SQL)}))`;
