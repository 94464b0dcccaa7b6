/** One dispatched server-sent event, or a comment line (keepalives). */
export type SseMessage =
  | { kind: "event"; id: string | null; event: string; data: string }
  | { kind: "comment"; text: string };

/**
 * The text/event-stream grammar (WHATWG HTML §9.2) for non-browser clients: the
 * benchmark and the tests read our endpoints the way an EventSource does.
 */
export class SseParser {
  private buffer = "";
  private id: string | null = null;
  private event = "";
  private data: string[] = [];

  push(text: string): SseMessage[] {
    this.buffer += text;
    const out: SseMessage[] = [];
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + (this.buffer.startsWith("\r\n", nl) ? 2 : 1));
      if (line === "") {
        if (this.data.length > 0) out.push({ kind: "event", id: this.id, event: this.event || "message", data: this.data.join("\n") });
        this.event = "";
        this.data = [];
        continue;
      }
      if (line.startsWith(":")) {
        out.push({ kind: "comment", text: line.slice(1).trimStart() });
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") this.data.push(value);
      else if (field === "event") this.event = value;
      else if (field === "id" && !value.includes("\0")) this.id = value;
    }
    return out;
  }
}

/** Reads a Response body as SSE messages, one at a time, with a deadline per message. */
export class SseReader {
  private readonly parser = new SseParser();
  private readonly queue: SseMessage[] = [];
  private readonly decoder = new TextDecoder();
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private reading: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  ended = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  /** The next message, or null when the server closed the stream. */
  async next(timeoutMs = 5_000, includeComments = false): Promise<SseMessage | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.queue.findIndex((m) => includeComments || m.kind === "event");
      if (i >= 0) return this.queue.splice(0, i + 1).pop()!;
      if (this.ended) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no server-sent event within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        (this.reading ??= this.reader.read()),
        new Promise<"timeout">((r) => { timer = setTimeout(() => r("timeout"), left); }),
      ]).finally(() => clearTimeout(timer));
      if (chunk === "timeout") continue;
      this.reading = null;
      if (chunk.done) this.ended = true;
      else this.queue.push(...this.parser.push(this.decoder.decode(chunk.value, { stream: true })));
    }
  }

  /** The next n events (comments skipped). */
  async take(n: number, timeoutMs = 5_000) {
    const out: Extract<SseMessage, { kind: "event" }>[] = [];
    while (out.length < n) {
      const m = await this.next(timeoutMs);
      if (!m) throw new Error(`stream ended after ${out.length} of ${n} events`);
      if (m.kind === "event") out.push(m);
    }
    return out;
  }

  async cancel() {
    await this.reader.cancel().catch(() => undefined);
  }
}
