import { getDb, type RunStatus } from "@/lib/db";
import { getEventHub, type StreamHub } from "@/lib/events/hub";
import { sseResponse, type SseAccess, type SseChannel, type SseClock } from "@/lib/events/sse";
import type { StreamEntry } from "@/lib/events/stream-ids";
import { runLogStreamKey, teamStreamKey } from "@/lib/events/streams";
import type { RunLogChunk, RunLogEnd } from "@/lib/events/wire";
import { FINISHED_RUN_STATUSES } from "@/lib/run-statuses";

const FINISHED: ReadonlySet<RunStatus> = new Set(FINISHED_RUN_STATUSES);
const PAGE = 100;

export interface RunLogFeedOptions extends SseClock, SseAccess {
  run: { id: string; teamId: string };
  /** The last seq the client has (Last-Event-ID); 0 or absent for the whole log. */
  afterSeq?: number;
  signal: AbortSignal;
  hub?: StreamHub;
}

/**
 * A run's log as SSE: what Postgres already holds, then the live tail from Redis, then
 * `end` once the run is finished and everything is sent. The sink writes each chunk's
 * row before it adds the chunk to the stream, so whatever the stream held before we
 * listened is in Postgres; the seq (RunLog.seq = stream field seq = SSE id) removes the
 * overlap, and a seq that skips ahead is filled from Postgres.
 */
export function runLogFeedResponse(opts: RunLogFeedOptions): Response {
  const hub = opts.hub ?? getEventHub();
  const runId = opts.run.id;
  let serial: Promise<void> = Promise.resolve();
  let sent = opts.afterSeq ?? 0;
  let channel: SseChannel | null = null;
  // One step at a time: backlog pages, live chunks and the end check never interleave.
  const step = (fn: (ch: SseChannel) => Promise<void>) => {
    serial = serial.then(() => (channel && !channel.signal.aborted ? fn(channel) : undefined));
    serial.catch(() => channel?.close());
    return serial;
  };

  const sendRows = async (ch: SseChannel, below?: number) => {
    while (!ch.signal.aborted) {
      const rows = await getDb().runLog.findMany({
        where: { runId, seq: below === undefined ? { gt: sent } : { gt: sent, lt: below } }, orderBy: { seq: "asc" }, take: PAGE, select: { seq: true, content: true },
      });
      // A page is up to 100 chunks of 64 KB: more than a client may fall behind. Waiting for it
      // to take each one keeps a big log's backlog within bounds instead of cutting the client off.
      for (const r of rows) {
        send(ch, r.seq, r.content);
        await ch.drained();
      }
      if (rows.length < PAGE) return;
    }
  };
  const send = (ch: SseChannel, seq: number, text: string) => {
    if (seq <= sent) return;
    sent = seq;
    ch.send({ id: String(seq), data: { seq, text } satisfies RunLogChunk });
  };
  const onChunks = (entries: StreamEntry[]) => step(async (ch) => {
    for (const e of entries) {
      const seq = Number(e.fields.seq);
      if (!Number.isInteger(seq) || seq <= sent) continue;
      if (seq > sent + 1) await sendRows(ch, seq);
      send(ch, seq, e.fields.l ?? "");
    }
  });
  const endIfFinished = () => step(async (ch) => {
    const run = await getDb().run.findUnique({ where: { id: runId }, select: { status: true } });
    if (run && !FINISHED.has(run.status)) return;
    await sendRows(ch);
    ch.send({ id: String(sent), event: "end", data: { status: run?.status ?? "lost" } satisfies RunLogEnd });
    ch.close();
  });

  return sseResponse({ ...opts, onKeepalive: () => void endIfFinished() }, async (ch) => {
    let live = false;
    const early: StreamEntry[] = [];
    const tail = hub.subscribe(runLogStreamKey(runId), (entries) => {
      if (live) void onChunks(entries);
      else early.push(...entries);
    });
    // The run's end is announced on the team stream (completeRun, reconcile).
    const hints = hub.subscribe(teamStreamKey(opts.run.teamId), (entries) => {
      if (entries.some((e) => e.fields.e?.includes(`"runId":"${runId}"`))) void endIfFinished();
    });
    ch.signal.addEventListener("abort", () => { tail.close(); hints.close(); }, { once: true });
    await Promise.all([tail.ready, hints.ready]);
    channel = ch;
    await step((c) => sendRows(c));
    live = true;
    void onChunks(early.splice(0));
    await endIfFinished();
  });
}
