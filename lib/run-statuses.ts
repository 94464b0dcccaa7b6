import type { RunStatus } from "@/lib/db/generated/enums";

// Free of runtime imports, so client components, SQL and queries share the one list.
export const LIVE_RUN_STATUSES = ["queued", "starting", "running"] as const satisfies readonly RunStatus[];
export const FINISHED_RUN_STATUSES = ["succeeded", "failed", "lost", "cancelled", "timed_out"] as const satisfies readonly RunStatus[];

export type LiveRunStatus = (typeof LIVE_RUN_STATUSES)[number];

export const isLiveRunStatus = (status: string): status is LiveRunStatus => (LIVE_RUN_STATUSES as readonly string[]).includes(status);

/** The live statuses as a SQL list, for the hand-written tick snapshot query. */
export const LIVE_RUN_STATUSES_SQL = LIVE_RUN_STATUSES.map((s) => `'${s}'`).join(", ");
