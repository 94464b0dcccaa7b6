import { LogMask } from "@/lib/runs/log-mask";
import type { RunnerApi } from "./api";

const FLUSH_MS = 250;
const MAX_LINES = 500;

/**
 * Sends a run's output to the server in numbered chunks, one at a time and in order. A chunk
 * whose answer was lost is sent again with the same number (the server stores it once), so
 * a network cut loses nothing and doubles nothing. A 409 means the run is no longer ours.
 */
export class LogStream {
  private buffer: string[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> = Promise.resolve();

  constructor(private readonly api: RunnerApi, private readonly runId: string, private readonly onLost: () => void, private readonly mask = new LogMask()) {}

  /** Masks what the runner gave its agent (lib/runs/log-mask.ts) before a line leaves this machine. */
  push(line: string): void {
    this.buffer.push(this.mask.apply(line));
    if (this.buffer.length >= MAX_LINES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Sends what is buffered; resolves once every chunk so far is stored. */
  flush(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (this.buffer.length) {
      const lines = this.buffer;
      this.buffer = [];
      const seq = ++this.seq;
      this.sending = this.sending.then(async () => {
        const res = await this.api.call("POST", `/api/runner/runs/${this.runId}/log`, { seq, lines });
        if (res.status === 409) this.onLost();
      });
    }
    return this.sending;
  }
}
