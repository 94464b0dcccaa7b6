import { getRedis, readyRedis } from "@/lib/redis/connections";
import { getEventHub, type StreamHub } from "@/lib/events/hub";
import { encodeSse, sseResponse, type SseAccess, type SseChannel, type SseClock } from "@/lib/events/sse";
import { compareStreamIds, toEntry, type StreamEntry } from "@/lib/events/stream-ids";
import { teamStreamKey, type TeamEvent } from "@/lib/events/streams";
import type { LiveEvent } from "@/lib/events/wire";

export interface TeamFeedOptions extends SseClock, SseAccess {
  teamId: string;
  /** Only this project's events (a project page, or a token scoped to one project). */
  projectId?: string | null;
  /** The last id the client saw; absent on a first connection. */
  afterId?: string | null;
  signal: AbortSignal;
  hub?: StreamHub;
}

const PAGE = 500;
// The hub hands the same entry to every client: parse and encode it once.
const decoded = new WeakMap<StreamEntry, { event: TeamEvent; bytes: Uint8Array } | null>();

function decode(entry: StreamEntry) {
  if (!decoded.has(entry)) {
    try {
      const event = JSON.parse(entry.fields.e) as TeamEvent;
      decoded.set(entry, { event, bytes: encodeSse({ id: entry.id, data: { ...event, id: entry.id } satisfies LiveEvent }) });
    } catch {
      decoded.set(entry, null);
    }
  }
  return decoded.get(entry)!;
}

/**
 * The team's events as SSE. A resuming client gets every event after its id (read back
 * from the stream), then the live tail; the hand-over drops ids already sent. A first
 * connection, or one whose id the stream no longer covers, gets `ready` or `reset`:
 * re-read everything, then follow the events.
 */
export function teamFeedResponse(opts: TeamFeedOptions): Response {
  const key = teamStreamKey(opts.teamId);
  const hub = opts.hub ?? getEventHub();
  return sseResponse(opts, async (ch) => {
    let last: string | null = null;
    let pending: StreamEntry[] | null = [];
    const deliver = (entry: StreamEntry) => {
      if (last !== null && compareStreamIds(entry.id, last) <= 0) return;
      last = entry.id;
      const d = decode(entry);
      if (!d || (opts.projectId && d.event.projectId !== opts.projectId)) return;
      ch.send(d.bytes);
    };
    const sub = hub.subscribe(key, (entries) => {
      if (pending) pending.push(...entries);
      else for (const e of entries) deliver(e);
    });
    ch.signal.addEventListener("abort", () => sub.close(), { once: true });
    await sub.ready;
    const redis = await readyRedis(getRedis("producer"));
    if (opts.afterId && !(await lostSince(key, opts.afterId))) {
      last = opts.afterId;
      await replay(ch, key, opts.afterId, deliver);
    } else {
      const tail = (await redis.xrevrange(key, "+", "-", "COUNT", 1))[0]?.[0] ?? "0-0";
      last = tail;
      ch.send({ id: tail, event: opts.afterId ? "reset" : "ready", data: {} });
    }
    const buffered = pending;
    pending = null;
    for (const e of buffered) deliver(e);
  });
}

async function replay(ch: SseChannel, key: string, afterId: string, deliver: (e: StreamEntry) => void) {
  const redis = await readyRedis(getRedis("producer"));
  for (let from = afterId; !ch.signal.aborted;) {
    const page = (await redis.xrange(key, `(${from}`, "+", "COUNT", PAGE)).map(toEntry);
    for (const e of page) deliver(e);
    if (page.length < PAGE) return;
    from = page[page.length - 1].id;
    await ch.drained();
  }
}

/** Whether entries after `afterId` may have been trimmed away (or the stream lost). */
async function lostSince(key: string, afterId: string): Promise<boolean> {
  const redis = await readyRedis(getRedis("producer"));
  let info: unknown[];
  try {
    info = (await redis.xinfo("STREAM", key)) as unknown[];
  } catch {
    return afterId !== "0-0"; // no stream: whatever the client saw is gone
  }
  const field = (name: string) => (info.includes(name) ? info[info.indexOf(name) + 1] : undefined);
  const maxDeleted = field("max-deleted-entry-id"); // XDEL only; trimming shows in entries-added
  if (typeof maxDeleted === "string" && compareStreamIds(maxDeleted, afterId) > 0) return true;
  const added = field("entries-added");
  const trimmed = added === undefined || Number(added) > Number(field("length"));
  // Past everything ever trimmed? (Conservative: the client's own last entry may be the newest one trimmed.)
  const first = field("first-entry") as [string, string[]] | null;
  const kept = first ? first[0] : (field("last-generated-id") as string);
  return trimmed && compareStreamIds(kept, afterId) > 0;
}
