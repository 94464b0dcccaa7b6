import { describe, expect, it } from "vitest";
import { nextTickBackoff, TICK_BACKOFF_MAX_MS, tickPeriodMs } from "@/lib/queues/tick-period";

describe("the idle tick's backoff", () => {
  it("doubles from the project's interval up to the ceiling", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((l) => tickPeriodMs(5000, l))).toEqual([5000, 10_000, 20_000, 40_000, 80_000, 160_000, 160_000]);
  });

  it("stops climbing at the ceiling and resets on any tick that had something to do", () => {
    let level = 0;
    const periods: number[] = [];
    for (let i = 0; i < 8; i++) periods.push(tickPeriodMs(5000, (level = nextTickBackoff(5000, level, true))));
    expect(periods).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 160_000, 160_000, 160_000]);
    expect(level).toBe(5);
    expect(nextTickBackoff(5000, level, false)).toBe(0);
  });

  it("never shortens an interval already longer than the ceiling", () => {
    expect(tickPeriodMs(TICK_BACKOFF_MAX_MS * 3, 4)).toBe(TICK_BACKOFF_MAX_MS * 3);
    expect(nextTickBackoff(TICK_BACKOFF_MAX_MS * 3, 0, true)).toBe(0);
    // An interval that does not double onto the ceiling stops at it.
    expect([4, 5, 6].map((l) => tickPeriodMs(7000, l))).toEqual([112_000, 160_000, 160_000]);
  });
});
