import { redisKey } from "@/lib/redis/connections";

// Events are hints (docs/ARCHITECTURE.md): the row is written first, then a small message on a
// Redis stream tells consumers what to re-read. Streams keep ids, so SSE clients resume.
export const teamStreamKey = (teamId: string) => redisKey("events", "team", teamId);
export const runLogStreamKey = (runId: string) => redisKey("runlog", runId);

export const TEAM_STREAM_MAXLEN = 10_000;
export const RUN_LOG_STREAM_MAXLEN = 5_000;

export type EventType =
  | "started" | "stopped" | "paused" | "resumed"
  | "taskAssigned" | "taskCompleted" | "taskFailed" | "allDone"
  | "branchChange" | "agentsChange" | "promptsChange" | "loopStatus"
  | "runChange" | "projectChange" | "activity"
  // A thread gained a turn or changed (threadId, seq); a run of its turns changed status.
  | "threadChange" | "message_status" | "budgetAlert"
  // A campaign was planned, re-planned, checked for drift, completed or failed (campaignId).
  | "campaignChange"
  // Seed 003's `error`: a run or a merge failed; the message says what went wrong.
  | "error";

export interface TeamEvent {
  type: EventType;
  projectId?: string;
  runId?: string;
  promptId?: string;
  message?: string;
  threadId?: string;
  campaignId?: string;
  /** threadChange: the new turn's sequence number. */
  seq?: number;
  /** message_status: the status the turns reached, and which turns ("all": every turn). */
  status?: "sent" | "delivered" | "evaluated";
  seqs?: number[] | "all";
}
