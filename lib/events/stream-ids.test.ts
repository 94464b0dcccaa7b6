import { describe, expect, it } from "vitest";
import { compareStreamIds, toEntry } from "@/lib/events/stream-ids";

describe("stream ids", () => {
  it("order by milliseconds, then sequence, as numbers", () => {
    expect(compareStreamIds("9-0", "10-0")).toBe(-1);
    expect(compareStreamIds("10-2", "10-10")).toBe(-1);
    expect(compareStreamIds("1700000000000-1", "1700000000000-1")).toBe(0);
    expect(compareStreamIds("1700000000001-0", "1700000000000-99")).toBe(1);
  });

  it("turn ioredis entries into field maps", () => {
    expect(toEntry(["5-1", ["seq", "3", "l", "a\nb"]])).toEqual({ id: "5-1", fields: { seq: "3", l: "a\nb" } });
  });
});
