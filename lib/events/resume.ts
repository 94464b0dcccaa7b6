import { z } from "zod";
import { STREAM_ID } from "@/lib/events/stream-ids";

/**
 * Where a client resumes: the Last-Event-ID header a reconnecting EventSource sends,
 * else the `lastEventId` query parameter (a client that opened a new EventSource).
 */
export function lastEventId(req: Request): { value: string; field: string } | null {
  const header = req.headers.get("last-event-id");
  if (header) return { value: header, field: "Last-Event-ID" };
  const query = new URL(req.url).searchParams.get("lastEventId");
  return query ? { value: query, field: "lastEventId" } : null;
}

const invalid = (field: string, message: string) =>
  new z.ZodError([{ code: "custom", path: [field], message, input: undefined }]);

export function streamIdFrom(req: Request): string | null {
  const id = lastEventId(req);
  if (!id) return null;
  if (!STREAM_ID.test(id.value)) throw invalid(id.field, "must be an event id like 1700000000000-0");
  return id.value;
}

export function seqFrom(req: Request): number {
  const id = lastEventId(req);
  if (!id) return 0;
  if (!/^\d{1,9}$/.test(id.value)) throw invalid(id.field, "must be a log sequence number");
  return Number(id.value);
}
