import type { TeamEvent } from "@/lib/events/streams";

// What the SSE endpoints put on the wire; the browser hooks import these types only.

/** GET /api/events, default `message` event; `id` is the Redis stream id (also the SSE id). */
export type LiveEvent = TeamEvent & { id: string };

/** GET /api/runs/[id]/log, default `message` event; the SSE id is `seq`. */
export interface RunLogChunk {
  seq: number;
  /** One or more output lines joined with "\n". */
  text: string;
}

/** GET /api/runs/[id]/log, `end` event: the run is finished and every chunk was sent. */
export interface RunLogEnd {
  status: string;
}
