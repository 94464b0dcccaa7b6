import type { RunStatus } from "@/lib/db/generated/enums";

// Free of runtime imports, so client components, SQL and queries share the one list.
export const LIVE_RUN_STATUSES = ["queued", "starting", "running"] as const satisfies readonly RunStatus[];
export const FINISHED_RUN_STATUSES = ["succeeded", "failed", "lost", "cancelled", "timed_out"] as const satisfies readonly RunStatus[];

export type LiveRunStatus = (typeof LIVE_RUN_STATUSES)[number];

export const isLiveRunStatus = (status: string): status is LiveRunStatus => (LIVE_RUN_STATUSES as readonly string[]).includes(status);

/** The live statuses as a SQL list, for the hand-written tick snapshot query. */
export const LIVE_RUN_STATUSES_SQL = LIVE_RUN_STATUSES.map((s) => `'${s}'`).join(", ");

/**
 * The badge a run shows: a succeeded run whose work did not land is not a success, so it
 * reads as its merge's outcome (never a green "succeeded" next to a conflict).
 */
export function runBadge(status: string, mergeStatus: string | null): { label: string; tone: string } {
  if (status !== "succeeded" || !mergeStatus) return { label: status.replace("_", " "), tone: status };
  if (mergeStatus === "merged") return { label: "merged", tone: "merged" };
  if (mergeStatus === "pending") return { label: "merging", tone: "in_progress" };
  if (mergeStatus === "conflict") return { label: "merge conflict", tone: "failed" };
  if (mergeStatus === "failed") return { label: "merge failed", tone: "failed" };
  return { label: `succeeded · ${mergeStatus}`, tone: "succeeded" };
}

/** "attempts n/m" everywhere: n counts the attempts spent (failed ones; lost runs and conflicts spend none). */
export const attemptsText = (spent: number, max: number) => `attempts ${spent}/${max}`;
