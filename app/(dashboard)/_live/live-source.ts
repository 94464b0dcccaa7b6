export type LiveStatus = "connecting" | "open" | "reconnecting";

export interface LiveSourceOptions {
  url: string;
  /** Named events to receive besides the default `message`. */
  events?: readonly string[];
  onEvent: (name: string, data: string) => void;
  onStatus: (status: LiveStatus) => void;
  /** Delay before reconnect attempt n (0-based). */
  backoffMs?: (attempt: number) => number;
}

export const defaultBackoff = (attempt: number) => Math.min(30_000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);

/**
 * An EventSource that reconnects with growing delays. A browser only resends
 * Last-Event-ID while it reconnects the same EventSource, and gives up for good on an
 * HTTP error; a new EventSource names the last id in the `lastEventId` parameter instead.
 */
export function openLiveSource(opts: LiveSourceOptions): { stop: () => void } {
  const backoff = opts.backoffMs ?? defaultBackoff;
  let lastId: string | null = null;
  let attempt = 0;
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const connect = () => {
    timer = null;
    const url = new URL(opts.url, window.location.href);
    if (lastId !== null) url.searchParams.set("lastEventId", lastId);
    const es = (source = new EventSource(url));
    const receive = (name: string) => (e: MessageEvent<string>) => {
      if (e.lastEventId) lastId = e.lastEventId;
      opts.onEvent(name, e.data);
    };
    es.onopen = () => { attempt = 0; opts.onStatus("open"); };
    es.onmessage = receive("message");
    for (const name of opts.events ?? []) es.addEventListener(name, receive(name) as EventListener);
    es.onerror = () => {
      es.close();
      if (stopped) return;
      opts.onStatus("reconnecting");
      timer = setTimeout(connect, backoff(attempt++));
    };
  };

  opts.onStatus("connecting");
  connect();
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      source?.close();
    },
  };
}
