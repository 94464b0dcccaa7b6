import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/log";
import { getRedis } from "@/lib/redis/connections";
import { RUN_LOG_STREAM_MAXLEN, runLogStreamKey } from "@/lib/events/streams";
import { LogMask } from "@/lib/runs/log-mask";

export const RUN_LOG_CAP_BYTES = 5 * 1024 * 1024;
const FLUSH_MS = 200;
const FLUSH_BYTES = 64 * 1024;
const TAIL_LINE_CHARS = 4096;

/**
 * Collects a run's output lines and writes them in chunks: Postgres keeps the log
 * (capped per run, with a marker where it was cut), a bounded Redis stream carries it live.
 */
export class RunLogSink {
  private buffer: string[] = [];
  private bufferBytes = 0;
  private seq = 0;
  private bytes = 0;
  private truncated = false;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  readonly tail: string[] = [];

  private readonly masked = new LogMask();

  constructor(private readonly runId: string, private readonly capBytes = RUN_LOG_CAP_BYTES) {}

  /** Values never written as they are, in the stored and the live log and the failure summary alike (lib/runs/log-mask.ts). */
  mask(secrets: Record<string, string>): void {
    this.masked.add(secrets);
  }

  push(raw: string): void {
    const line = this.masked.apply(raw);
    // The tail serves error summaries: a long line's start is enough, and keeps it small.
    this.tail.push(line.length > TAIL_LINE_CHARS ? line.slice(0, TAIL_LINE_CHARS) : line);
    if (this.tail.length > 200) this.tail.shift();
    if (this.truncated) return;
    const size = Buffer.byteLength(line) + 1;
    if (this.bytes + this.bufferBytes + size > this.capBytes) {
      this.truncated = true;
      this.buffer.push(`[ringmaster] output cut here: the log reached its ${this.capBytes} byte cap`);
    } else {
      this.buffer.push(line);
      this.bufferBytes += size;
    }
    if (this.bufferBytes >= FLUSH_BYTES || this.truncated) this.flushSoon(0);
    else this.flushSoon(FLUSH_MS);
  }

  private flushSoon(ms: number) {
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; void this.flush(); }, ms);
  }

  flush(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    const lines = this.buffer;
    const size = this.bufferBytes;
    this.buffer = [];
    this.bufferBytes = 0;
    if (lines.length === 0) return this.writing;
    const seq = ++this.seq;
    this.bytes += size;
    const content = lines.join("\n");
    const truncated = this.truncated;
    this.writing = this.writing.then(async () => {
      await getDb().$transaction([
        getDb().runLog.create({ data: { runId: this.runId, seq, content } }),
        getDb().run.update({ where: { id: this.runId }, data: { logBytes: this.bytes, logTruncated: truncated } }),
      ]);
      await getRedis("producer")
        .xadd(runLogStreamKey(this.runId), "MAXLEN", "~", String(RUN_LOG_STREAM_MAXLEN), "*", "seq", String(seq), "l", content)
        .catch(() => null);
    }).catch((err: Error) => {
      getLogger("runs").warn({ runId: this.runId, err: err.message }, "run log chunk not stored");
    });
    return this.writing;
  }
}
