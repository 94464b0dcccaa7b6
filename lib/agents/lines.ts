import { StringDecoder } from "node:string_decoder";
import type { Readable } from "node:stream";

/**
 * Calls `onLine` for each complete line of `stream`, and once more for a last line without
 * a newline. The decoder holds back a multi-byte character split across chunks.
 */
export function splitLines(stream: Readable, onLine: (line: string) => void): { flush(): void } {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  const emit = (text: string) => {
    pending += text;
    let newline = pending.indexOf("\n");
    while (newline !== -1) {
      onLine(stripCarriageReturn(pending.slice(0, newline)));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
    }
  };
  stream.on("data", (chunk: Buffer) => emit(decoder.write(chunk)));
  let flushed = false;
  return {
    flush() {
      if (flushed) return;
      flushed = true;
      emit(decoder.end());
      if (pending !== "") onLine(stripCarriageReturn(pending));
      pending = "";
    },
  };
}

function stripCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
