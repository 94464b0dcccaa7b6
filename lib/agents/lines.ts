import { StringDecoder } from "node:string_decoder";
import type { Readable } from "node:stream";

export const MAX_LINE_CHARS = 1024 * 1024;

/**
 * Calls `onLine` for each complete line of `stream`, and once more for a last line without
 * a newline; a line longer than `maxLineChars` comes in pieces of that length. The decoder holds
 * back a multi-byte character split across chunks.
 */
export function splitLines(stream: Readable, onLine: (line: string) => void, maxLineChars = MAX_LINE_CHARS): { flush(): void } {
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
    // Output with no newline for megabytes would otherwise be held whole: it goes on in pieces.
    while (pending.length > maxLineChars) {
      onLine(pending.slice(0, maxLineChars));
      pending = pending.slice(maxLineChars);
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
