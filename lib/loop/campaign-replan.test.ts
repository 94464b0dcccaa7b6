import { describe, expect, it } from "vitest";
import { replanDelayMs, retryAt } from "@/lib/loop/campaign-replan";

describe("the re-plan backoff", () => {
  it("follows the planner's curve, 10 s × 2^min(n−1, 4), from the project's cooldown", () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => replanDelayMs(10_000, n))).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 160_000, 160_000]);
    expect(replanDelayMs(0, 3)).toBe(0);
    expect(retryAt(new Date("2026-01-01T00:00:00.000Z"), 10_000, 2).toISOString()).toBe("2026-01-01T00:00:20.000Z");
  });
});
