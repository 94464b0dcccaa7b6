import { describe, expect, it } from "vitest";
import { decide } from "@/lib/loop/decide";
import type { DecisionInput, PlannerState, PromptView } from "@/lib/loop/types";

const T0 = new Date("2026-01-01T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

// Five finished prompts: every tick below reaches the planner branch of the diagram.
const FINISHED: PromptView[] = [1, 2, 3, 4, 5].map((number) => ({
  id: `p${number}`,
  number,
  status: "done",
  priority: 3,
  dependencies: [],
  approved: true,
  live: false,
  merging: false,
  retryAt: null,
}));

function input(planner: PlannerState, prompts: PromptView[] = FINISHED): DecisionInput {
  return {
    mode: "running",
    parallelEnabled: false,
    maxParallel: 1,
    spawnCooldownMs: 10_000,
    lastSpawnAt: null,
    plannerEnabled: true,
    plannerRunning: false,
    executorsRunning: 0,
    mergesPending: 0,
    pullsAwaitingMerge: [],
    prompts,
    planner,
  };
}

describe("planner backoff: cooldown = 10 s × 2^min(n, 4) since the last planner spawn", () => {
  // n unproductive spawns, counting the one being judged now (the last spawn left the count at 5).
  it.each([
    [0, 10],
    [1, 20],
    [2, 40],
    [3, 80],
    [4, 160],
    [5, 160],
    [9, 160],
  ])("%i unproductive spawns → %i s", (n, cooldownSeconds) => {
    const planner: PlannerState =
      n === 0
        ? { unproductiveSpawns: 0, lastPromptCount: 4, lastSpawnAt: T0 }
        : { unproductiveSpawns: n - 1, lastPromptCount: 5, lastSpawnAt: T0 };
    const cooldownMs = cooldownSeconds * 1000;
    const spawns = n === 1 ? "spawn" : "spawns";

    expect(decide(input(planner), at(cooldownMs - 1))).toEqual({
      kind: "planner_backoff",
      remainingMs: 1,
      cooldownMs,
      unproductiveSpawns: n,
      message: `Emergent planner backoff: waiting ${cooldownSeconds}s (${n} unproductive ${spawns})`,
    });
    expect(decide(input(planner), at(cooldownMs))).toMatchObject({
      kind: "spawn_planner",
      planner: { unproductiveSpawns: n, lastPromptCount: 5, lastSpawnAt: at(cooldownMs) },
    });
  });

  it("prints seed 000's example line verbatim", () => {
    const planner = { unproductiveSpawns: 1, lastPromptCount: 5, lastSpawnAt: T0 };
    expect(decide(input(planner), at(25_000)).message).toBe(
      "Emergent planner backoff: waiting 40s (2 unproductive spawns)",
    );
  });

  it("a productive planner (prompt count grew) resets the count to 0", () => {
    const planner = { unproductiveSpawns: 3, lastPromptCount: 4, lastSpawnAt: T0 };
    expect(decide(input(planner), at(10_000))).toEqual({
      kind: "spawn_planner",
      planner: { unproductiveSpawns: 0, lastPromptCount: 5, lastSpawnAt: at(10_000) },
      message: "Spawning emergent planner: no pending or in-progress prompts",
    });
  });

  it("a shrinking prompt count is unproductive", () => {
    const planner = { unproductiveSpawns: 0, lastPromptCount: 7, lastSpawnAt: T0 };
    expect(decide(input(planner), at(15_000))).toMatchObject({ kind: "planner_backoff", unproductiveSpawns: 1 });
  });

  it("names the history when it spawns after unproductive runs", () => {
    const planner = { unproductiveSpawns: 1, lastPromptCount: 5, lastSpawnAt: T0 };
    expect(decide(input(planner), at(40_000)).message).toBe(
      "Spawning emergent planner: no pending or in-progress prompts (after 2 unproductive spawns)",
    );
  });

  it("a planner that never produces anything is respawned after 20, 40, 80, 160, 160 s", () => {
    let planner: PlannerState = { unproductiveSpawns: 0, lastPromptCount: null, lastSpawnAt: null };
    const spawnTimes: number[] = [];
    for (let ms = 0; ms <= 500_000; ms += 1_000) {
      const decision = decide(input(planner), at(ms));
      if (decision.kind === "spawn_planner") {
        planner = decision.planner;
        spawnTimes.push(ms / 1000);
      }
    }
    expect(spawnTimes).toEqual([0, 20, 60, 140, 300, 460]);
    expect(planner).toEqual({ unproductiveSpawns: 5, lastPromptCount: 5, lastSpawnAt: at(460_000) });
  });
});
