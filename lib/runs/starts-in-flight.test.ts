import { afterEach, describe, expect, it, vi } from "vitest";
import { startBegun, whenStartsSettle } from "@/lib/runs/starts-in-flight";

afterEach(() => {
  vi.useRealTimers();
});

describe("refills wait for this worker's run starts in flight", () => {
  it("run at once with none in flight, else once the last start has ended (ending twice counts once)", () => {
    const done: string[] = [];
    whenStartsSettle(() => done.push("idle"));
    expect(done).toEqual(["idle"]);

    const first = startBegun();
    const second = startBegun();
    whenStartsSettle(() => done.push("a"));
    whenStartsSettle(() => done.push("b"));
    first();
    first();
    expect(done).toEqual(["idle"]);
    second();
    expect(done).toEqual(["idle", "a", "b"]);
    // Each ran once: a later start's end runs nothing again.
    startBegun()();
    expect(done).toEqual(["idle", "a", "b"]);
  });

  it("run after a second at most, when starts never stop coming", () => {
    vi.useFakeTimers();
    const done: string[] = [];
    const endless = startBegun();
    whenStartsSettle(() => done.push("late"));
    vi.advanceTimersByTime(999);
    expect(done).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(done).toEqual(["late"]);
    // Not run a second time when the start ends.
    endless();
    expect(done).toEqual(["late"]);
  });
});
