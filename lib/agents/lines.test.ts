import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { splitLines } from "@/lib/agents/lines";

function collect(chunks: string[], maxLineChars?: number): string[] {
  const stream = new PassThrough();
  const lines: string[] = [];
  const split = splitLines(stream, (l) => lines.push(l), maxLineChars);
  for (const c of chunks) stream.emit("data", Buffer.from(c));
  split.flush();
  return lines;
}

describe("splitLines", () => {
  it("splits on newlines across chunks and drops a trailing carriage return", () => {
    expect(collect(["a\r\nb", "c\n", "d"])).toEqual(["a", "bc", "d"]);
  });

  it("hands on a line longer than the limit in pieces of the limit, holding no more than that", () => {
    expect(collect(["0123", "456789a", "b\nxy"], 4)).toEqual(["0123", "4567", "89ab", "xy"]);
  });
});
