import { setTimeout as delay } from "node:timers/promises";
import { getLogger } from "@/lib/log";

export const KEEPALIVE_MS = 15_000;
// How soon a stream notices its reader lost access (removed, token revoked, signed out everywhere).
export const ACCESS_RECHECK_MS = 3_000;
// A client this far behind is cut off; it reconnects with Last-Event-ID and resumes.
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
} as const;

export interface SseClock {
  keepaliveMs?: number;
  /** Resolves after ms, or early when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

export interface SseAccess {
  /** Asked every few seconds; the stream ends once it answers false. */
  stillAllowed?: () => Promise<boolean>;
  accessRecheckMs?: number;
}

export interface SseOptions extends SseClock, SseAccess {
  /** The request's signal: the client went away. */
  signal: AbortSignal;
  /** Called after each keepalive comment (a safety net for hints that were missed). */
  onKeepalive?: () => void;
}

export interface SseMessageOut {
  id: string;
  event?: string;
  data: unknown;
}

export interface SseChannel {
  send(msg: SseMessageOut | Uint8Array): void;
  /** Resolves when the client has taken what was queued (for long backlogs). */
  drained(): Promise<void>;
  close(): void;
  /** Aborted when the connection ends, from either side. */
  readonly signal: AbortSignal;
}

const encoder = new TextEncoder();

/** An event's bytes; a fan-out encodes once and sends the same bytes to every client. */
export const encodeSse = ({ id, event, data }: SseMessageOut): Uint8Array =>
  encoder.encode(`id: ${id}\n${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);

const defaultSleep = (ms: number, signal: AbortSignal) =>
  delay(ms, undefined, { signal }).catch(() => undefined);

/**
 * A text/event-stream response. Authorization happens before this is called; `run`
 * then feeds the channel. Every event carries an id so the client can resume.
 */
export function sseResponse(opts: SseOptions, run: (ch: SseChannel) => Promise<void>): Response {
  const ended = new AbortController();
  const sleep = opts.sleep ?? defaultSleep;
  const now = opts.now ?? Date.now;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let wakeDrain: (() => void) | null = null;

  const close = () => {
    if (ended.signal.aborted) return;
    ended.abort();
    wakeDrain?.();
    try { controller.close(); } catch { /* already closed or cancelled */ }
  };
  const write = (bytes: Uint8Array) => {
    if (ended.signal.aborted) return;
    controller.enqueue(bytes);
    if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) close();
  };
  const channel: SseChannel = {
    send: (msg) => write(msg instanceof Uint8Array ? msg : encodeSse(msg)),
    drained: () => ended.signal.aborted || (controller.desiredSize ?? 0) > 0
      ? Promise.resolve()
      : new Promise<void>((r) => { wakeDrain = r; }),
    close,
    signal: ended.signal,
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) { controller = c; },
      pull() { wakeDrain?.(); wakeDrain = null; },
      cancel() { close(); },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );

  if (opts.signal.aborted) close();
  else opts.signal.addEventListener("abort", close, { once: true });
  ended.signal.addEventListener("abort", () => opts.signal.removeEventListener("abort", close), { once: true });

  void (async () => {
    while (!ended.signal.aborted) {
      await sleep(opts.keepaliveMs ?? KEEPALIVE_MS, ended.signal);
      if (ended.signal.aborted) break;
      write(encoder.encode(`: keepalive ${now()}\n\n`));
      opts.onKeepalive?.();
    }
  })();

  const { stillAllowed } = opts;
  if (stillAllowed) {
    void (async () => {
      while (!ended.signal.aborted) {
        await sleep(opts.accessRecheckMs ?? ACCESS_RECHECK_MS, ended.signal);
        if (ended.signal.aborted) break;
        if (!(await stillAllowed().catch(() => true))) close();
      }
    })();
  }

  write(encoder.encode("retry: 1000\n\n"));
  // A request aborted before its stream opened feeds nothing: the feeds subscribe at once and
  // close on the signal's abort event, which an already-aborted signal never fires again.
  if (!ended.signal.aborted) {
    run(channel).catch((err: Error) => {
      getLogger("events").warn({ err: err.message }, "event stream failed; the client will reconnect");
      close();
    });
  }

  return new Response(body, { headers: SSE_HEADERS });
}
