import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { getLogger } from "@/lib/log";
import { getRedis, readyRedis, redisKey } from "@/lib/redis/connections";
import { compareStreamIds, toEntry, type StreamEntry } from "@/lib/events/stream-ids";

export type StreamListener = (entries: StreamEntry[]) => void;

export interface StreamSubscription {
  /** Resolves once every entry added to the stream from now on reaches the listener. */
  ready: Promise<void>;
  close(): void;
}

interface KeyState {
  listeners: Set<StreamListener>;
  /** The last id fanned out; null while the key's starting point is being read. */
  cursor: string | null;
  ready: Promise<void>;
}

export interface StreamHubOptions {
  /** The one connection that blocks in XREAD (the process's "reader"). */
  reader?: () => Redis;
  /** For short commands: starting points and wake-ups. */
  producer?: () => Promise<Redis>;
  blockMs?: number;
  count?: number;
  sleep?: (ms: number) => Promise<void>;
}

type XReadReply = [string, [string, string[]][]][] | null;

/**
 * One XREAD BLOCK loop per process fans the streams that have listeners out to them,
 * however many clients are connected. A change of the key set wakes the blocked read
 * by adding to a private wake stream that every read includes.
 */
export class StreamHub {
  private readonly keys = new Map<string, KeyState>();
  private readonly wakeKey = redisKey("events", "wake", randomUUID());
  private wakeCursor = "0-0";
  private version = 0;
  private iteration = 0;
  private wokenIteration = -1;
  private readingVersion: number | null = null;
  private idle: (() => void) | null = null;
  private running = false;
  private readonly reader: () => Redis;
  private readonly producer: () => Promise<Redis>;
  private readonly blockMs: number;
  private readonly count: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(opts: StreamHubOptions = {}) {
    this.reader = opts.reader ?? (() => getRedis("reader"));
    this.producer = opts.producer ?? (() => readyRedis(getRedis("producer")));
    this.blockMs = opts.blockMs ?? 5_000;
    this.count = opts.count ?? 1_000;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  subscribe(key: string, listener: StreamListener): StreamSubscription {
    let state = this.keys.get(key);
    if (!state) {
      const fresh: KeyState = { listeners: new Set(), cursor: null, ready: Promise.resolve() };
      fresh.ready = this.startingPoint(key).then(
        (id) => {
          if (this.keys.get(key) !== fresh) return;
          fresh.cursor = id;
          this.changed();
        },
        (err: Error) => {
          // The next subscriber tries again; this one's caller sees the error through ready.
          if (this.keys.get(key) === fresh) this.keys.delete(key);
          this.changed();
          throw err;
        },
      );
      fresh.ready.catch(() => {});
      this.keys.set(key, (state = fresh));
    }
    const own = state;
    own.listeners.add(listener);
    this.ensureRunning();
    let closed = false;
    return {
      ready: own.ready,
      close: () => {
        if (closed) return;
        closed = true;
        own.listeners.delete(listener);
        if (own.listeners.size === 0 && this.keys.get(key) === own) {
          this.keys.delete(key);
          this.changed();
        }
      },
    };
  }

  /** Keys being read and listeners attached: for tests and the benchmark. */
  stats() {
    let listeners = 0;
    for (const s of this.keys.values()) listeners += s.listeners.size;
    return { keys: [...this.keys.keys()], listeners };
  }

  private async startingPoint(key: string): Promise<string> {
    const last = (await (await this.producer()).xrevrange(key, "+", "-", "COUNT", 1))[0];
    return last ? last[0] : "0-0";
  }

  private changed() {
    this.version++;
    if (this.idle) {
      this.idle();
      this.idle = null;
    } else if (this.readingVersion !== null && this.readingVersion !== this.version && this.wokenIteration !== this.iteration) {
      this.wokenIteration = this.iteration;
      void this.producer()
        .then((p) => p.multi().xadd(this.wakeKey, "MAXLEN", "1", "*", "w", "1").pexpire(this.wakeKey, 3_600_000).exec())
        .catch((err: Error) => getLogger("events").warn({ err: err.message }, "could not wake the stream reader"));
    }
  }

  private ensureRunning() {
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  private async loop() {
    let failures = 0;
    for (;;) {
      const readable = [...this.keys].filter(([, s]) => s.cursor !== null);
      if (readable.length === 0) {
        if (this.keys.size === 0) break;
        await new Promise<void>((r) => { this.idle = r; });
        continue;
      }
      this.iteration++;
      this.readingVersion = this.version;
      try {
        const reply = (await this.reader().xread(
          "COUNT", this.count, "BLOCK", this.blockMs, "STREAMS",
          this.wakeKey, ...readable.map(([k]) => k), this.wakeCursor, ...readable.map(([, s]) => s.cursor!),
        )) as XReadReply;
        failures = 0;
        this.readingVersion = null;
        for (const [key, raw] of reply ?? []) this.fanOut(key, raw);
      } catch (err) {
        this.readingVersion = null;
        getLogger("events").warn({ err: (err as Error).message }, "stream read failed; retrying");
        await this.sleep(Math.min(5_000, 100 * 2 ** failures++));
      }
    }
    this.running = false;
    this.readingVersion = null;
  }

  private fanOut(key: string, raw: [string, string[]][]) {
    if (raw.length === 0) return;
    if (key === this.wakeKey) {
      this.wakeCursor = raw[raw.length - 1][0];
      return;
    }
    const state = this.keys.get(key);
    if (!state || state.cursor === null) return;
    // A key dropped and re-added during the read starts after its new cursor.
    const entries = raw.map(toEntry).filter((e) => compareStreamIds(e.id, state.cursor!) > 0);
    if (entries.length === 0) return;
    state.cursor = entries[entries.length - 1].id;
    for (const listener of [...state.listeners]) {
      try {
        listener(entries);
      } catch (err) {
        getLogger("events").warn({ err: (err as Error).message, key }, "stream listener failed");
      }
    }
  }
}

const holder = globalThis as unknown as { __ringmasterEventHub?: StreamHub };

/** The process's one hub (kept across dev-server module reloads). */
export function getEventHub(): StreamHub {
  return (holder.__ringmasterEventHub ??= new StreamHub());
}
