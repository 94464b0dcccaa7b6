import { describe, expect, it } from "vitest";
import { replanDelayMs, replansInARow, retryAt } from "@/lib/loop/campaign-replan";
import { MAX_REPLANS, reasonLine } from "@/lib/campaigns/state";

describe("the re-plan backoff", () => {
  it("follows the planner's curve, 10 s × 2^min(n−1, 4), from the project's cooldown", () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => replanDelayMs(10_000, n))).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 160_000, 160_000]);
    expect(replanDelayMs(0, 3)).toBe(0);
    expect(retryAt(new Date("2026-01-01T00:00:00.000Z"), 10_000, 2).toISOString()).toBe("2026-01-01T00:00:20.000Z");
  });
});

describe("re-plans in a row without progress", () => {
  it.each([
    ["a broken task in a plan that completed nothing", 3, "replan", 0, 4],
    ["a broken task after a task of its plan completed", MAX_REPLANS, "replan", 1, 1],
    ["a drift, whatever its plan completed", 3, "drift", 2, 4],
    ["the first drift", 0, "drift", 3, 1],
  ] as const)("%s", (_name, previous, kind, completed, expected) => {
    expect(replansInARow(previous, kind, completed)).toBe(expected);
  });

  it("the history names a failure by its heading and the run's error", () => {
    expect(reasonLine("Task t2 failed after 4 attempts:\nagent exited with 3\n\nboom at line 3\n")).toBe("Task t2 failed after 4 attempts: agent exited with 3");
    expect(reasonLine("Task t2 failed after 4 attempts:\n…the middle of a long log\nboom")).toBe("Task t2 failed after 4 attempts:");
    expect(reasonLine("DRIFT DETECTED: off goal")).toBe("DRIFT DETECTED: off goal");
  });
});
