import { describe, expect, it } from "vitest";
import { SseParser } from "@/lib/events/sse-parse";

describe("SseParser", () => {
  it("dispatches events on a blank line, across chunk boundaries and line endings", () => {
    const p = new SseParser();
    expect(p.push("retry: 1000\n\nid: 1-0\nda")).toEqual([]);
    expect(p.push("ta: {\"a\":1}\r\n\r\n: keepalive 5\nevent: end\nid: 7\ndata: x\ndata: y\n\n")).toEqual([
      { kind: "event", id: "1-0", event: "message", data: "{\"a\":1}" },
      { kind: "comment", text: "keepalive 5" },
      { kind: "event", id: "7", event: "end", data: "x\ny" },
    ]);
  });

  it("keeps the last id for events that carry none, as EventSource does", () => {
    const p = new SseParser();
    expect(p.push("id: 3\ndata: a\n\ndata: b\n\n").map((m) => m.kind === "event" && m.id)).toEqual(["3", "3"]);
  });
});
