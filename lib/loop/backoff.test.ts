import { describe, expect, it } from "vitest";
import {
  SPAWN_COOLDOWN_MS,
  plannerCooldownMs,
  plannerStateAfterSnapshot,
  plannerStateAtSpawn,
  remainingMs,
  resetPlannerBackoffOnToggle,
  unproductiveSpawnsNow,
} from "@/lib/loop/backoff";
import type { PlannerState } from "@/lib/loop/types";

const T0 = new Date("2026-01-01T12:00:00.000Z");
const state = (unproductiveSpawns: number, lastPromptCount: number | null): PlannerState => ({
  unproductiveSpawns,
  lastPromptCount,
  lastSpawnAt: T0,
});

describe("plannerCooldownMs", () => {
  it.each([
    [0, 10_000],
    [1, 20_000],
    [2, 40_000],
    [3, 80_000],
    [4, 160_000],
    [5, 160_000],
    [50, 160_000],
  ])("%i unproductive spawns → %i ms", (n, expected) => {
    expect(plannerCooldownMs(SPAWN_COOLDOWN_MS, n)).toBe(expected);
  });

  it("scales with the configured base", () => {
    expect(plannerCooldownMs(1_000, 3)).toBe(8_000);
  });
});

describe("productivity of the previous planner spawn", () => {
  it.each([
    ["never spawned", state(0, null), 5, 0],
    ["count unchanged", state(2, 5), 5, 3],
    ["count shrank", state(0, 5), 4, 1],
    ["count grew", state(4, 5), 6, 0],
  ])("%s", (_name, planner, current, expected) => {
    expect(unproductiveSpawnsNow(planner, current)).toBe(expected);
  });

  it("a spawn records the judgement, the current count and the time", () => {
    const now = new Date("2026-01-01T12:05:00.000Z");
    expect(plannerStateAtSpawn(state(2, 5), 5, now)).toEqual({ unproductiveSpawns: 3, lastPromptCount: 5, lastSpawnAt: now });
    expect(plannerStateAtSpawn(state(2, 5), 8, now)).toEqual({ unproductiveSpawns: 0, lastPromptCount: 8, lastSpawnAt: now });
  });
});

describe("backoff resets", () => {
  it("any loop toggle resets the count and keeps the rest", () => {
    expect(resetPlannerBackoffOnToggle(state(4, 9))).toEqual({ unproductiveSpawns: 0, lastPromptCount: 9, lastSpawnAt: T0 });
  });

  it.each([
    [0, 1, 0],
    [2, 5, 0],
    [3, 3, 3],
    [3, 1, 3],
  ])("pending %i → %i leaves the count at %i", (previous, current, expected) => {
    expect(plannerStateAfterSnapshot(state(3, 9), previous, current)).toEqual({
      unproductiveSpawns: expected,
      lastPromptCount: 9,
      lastSpawnAt: T0,
    });
  });
});

describe("remainingMs", () => {
  it.each([
    [null, 0],
    [0, 10_000],
    [4_000, 6_000],
    [9_999, 1],
    [10_000, 0],
    [25_000, 0],
  ])("window opened %s ms ago → %i ms left", (elapsed, expected) => {
    const since = elapsed === null ? null : new Date(T0.getTime() - elapsed);
    expect(remainingMs(since, 10_000, T0)).toBe(expected);
  });
});
