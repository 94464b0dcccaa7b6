import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QUIET_MS, startBegun, startsSettled, whenStartsSettle } from "@/lib/runs/starts-in-flight";

// Each test's clock starts long after the last one's: the worker is quiet at first.
let clock = Date.UTC(2026, 0, 1);
beforeEach(() => {
  vi.useFakeTimers({ now: (clock += 3_600_000) });
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

  it("on a worker quiet for QUIET_MS already, run at once; quiet for less, once it has been", () => {
    const done: string[] = [];
    startBegun()();
    vi.advanceTimersByTime(QUIET_MS);
    whenStartsSettle(() => done.push("now"));
    expect(done).toEqual(["now"]);
    startBegun()();
    vi.advanceTimersByTime(100);
    whenStartsSettle(() => done.push("soon"));
    vi.advanceTimersByTime(QUIET_MS - 101);
    expect(done).toEqual(["now"]);
    vi.advanceTimersByTime(1);
    expect(done).toEqual(["now", "soon"]);
  });

  it("one start ending while another is in flight runs nothing; the last one's end starts the quiet time", () => {
    const done: string[] = [];
    const a = startBegun();
    const b = startBegun();
    whenStartsSettle(() => done.push("refill"));
    a();
    vi.advanceTimersByTime(500);
    expect(done).toEqual([]);
    b();
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(done).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(done).toEqual(["refill"]);
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

  it("a refill run late leaves the others waiting for the quiet time", () => {
    const done: string[] = [];
    const endless = startBegun();
    whenStartsSettle(() => done.push("first"));
    vi.advanceTimersByTime(500);
    whenStartsSettle(() => done.push("second"));
    vi.advanceTimersByTime(500);
    expect(done).toEqual(["first"]);
    endless();
    vi.advanceTimersByTime(QUIET_MS);
    expect(done).toEqual(["first", "second"]);
  });

  it("startsSettled resolves once every waiting refill has run, by the quiet time or late", async () => {
    const done: string[] = [];
    await startsSettled();
    const start = startBegun();
    whenStartsSettle(() => done.push("refill"));
    let settled = false;
    void startsSettled().then(() => { settled = true; });
    start();
    await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
    expect([done, settled]).toEqual([[], false]);
    await vi.advanceTimersByTimeAsync(1);
    expect([done, settled]).toEqual([["refill"], true]);

    const endless = startBegun();
    whenStartsSettle(() => done.push("late"));
    let late = false;
    void startsSettled().then(() => { late = true; });
    await vi.advanceTimersByTimeAsync(1_000);
    expect([done, late]).toEqual([["refill", "late"], true]);
    endless();
    await vi.advanceTimersByTimeAsync(QUIET_MS);
  });

  it("startsSettled waits for every refill: one run late leaves it waiting for the others", async () => {
    const done: string[] = [];
    const endless = startBegun();
    whenStartsSettle(() => done.push("first"));
    await vi.advanceTimersByTimeAsync(500);
    whenStartsSettle(() => done.push("second"));
    let settled = false;
    void startsSettled().then(() => { settled = true; });
    await vi.advanceTimersByTimeAsync(500);
    expect([done, settled]).toEqual([["first"], false]);
    endless();
    await vi.advanceTimersByTimeAsync(QUIET_MS);
    expect([done, settled]).toEqual([["first", "second"], true]);
  });
});
