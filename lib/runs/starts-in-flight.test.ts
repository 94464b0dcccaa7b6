import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QUIET_MS, startBegun, whenStartsSettle } from "@/lib/runs/starts-in-flight";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  // What an earlier test left waiting runs, so the next one starts from a quiet worker.
  vi.advanceTimersByTime(10 * QUIET_MS);
  vi.useRealTimers();
});

describe("refills wait for this worker's run starts in flight", () => {
  it("run at once on a quiet worker, else once the last start has been over for QUIET_MS (ending twice counts once)", () => {
    const done: string[] = [];
    whenStartsSettle(() => done.push("idle"));
    expect(done).toEqual(["idle"]);

    const first = startBegun();
    const second = startBegun();
    whenStartsSettle(() => done.push("a"));
    whenStartsSettle(() => done.push("b"));
    first();
    first();
    vi.advanceTimersByTime(QUIET_MS);
    expect(done).toEqual(["idle"]);
    second();
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(done).toEqual(["idle"]);
    vi.advanceTimersByTime(1);
    expect(done).toEqual(["idle", "a", "b"]);
    // Each ran once: a later start's end runs nothing again.
    startBegun()();
    vi.advanceTimersByTime(QUIET_MS);
    expect(done).toEqual(["idle", "a", "b"]);
  });

  it("a start that begins in the quiet time puts the refill off until it has been over for QUIET_MS (a burst's next start)", () => {
    const done: string[] = [];
    const first = startBegun();
    whenStartsSettle(() => done.push("refill"));
    first();
    vi.advanceTimersByTime(QUIET_MS - 10);
    const next = startBegun();
    vi.advanceTimersByTime(100);
    expect(done).toEqual([]);
    next();
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(done).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(done).toEqual(["refill"]);
  });

  it("on a worker quiet for QUIET_MS already, run at once", () => {
    const done: string[] = [];
    startBegun()();
    vi.advanceTimersByTime(QUIET_MS);
    whenStartsSettle(() => done.push("now"));
    expect(done).toEqual(["now"]);
  });

  it("run after a second at most, when starts never stop coming", () => {
    const done: string[] = [];
    const endless = startBegun();
    whenStartsSettle(() => done.push("late"));
    vi.advanceTimersByTime(999);
    expect(done).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(done).toEqual(["late"]);
    // Not run a second time when the start ends.
    endless();
    vi.advanceTimersByTime(QUIET_MS);
    expect(done).toEqual(["late"]);
  });
});
