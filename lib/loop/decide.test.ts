import { describe, expect, it } from "vitest";
import { decide } from "@/lib/loop/decide";
import type { DecisionInput, PromptView } from "@/lib/loop/types";

const NOW = new Date("2026-01-01T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);

function prompt(number: number, overrides: Partial<PromptView> = {}): PromptView {
  return {
    id: `p${number}`,
    number,
    status: "pending",
    priority: 3,
    dependencies: [],
    approved: true,
    live: false,
    merging: false,
    retryAt: null,
    ...overrides,
  };
}

function input(overrides: Partial<DecisionInput> = {}): DecisionInput {
  return {
    mode: "running",
    parallelEnabled: true,
    maxParallel: 3,
    spawnCooldownMs: 10_000,
    lastSpawnAt: null,
    plannerEnabled: true,
    plannerRunning: false,
    executorsRunning: 0,
    mergesPending: 0,
    pullsAwaitingMerge: [],
    prompts: [prompt(1)],
    planner: { unproductiveSpawns: 0, lastPromptCount: null, lastSpawnAt: null },
    ...overrides,
  };
}

describe("decide: order of checks (seed 000 state diagram)", () => {
  it.each([
    ["paused", "Loop paused: running agents continue, nothing new starts"],
    ["stopped", "Loop stopped"],
  ] as const)("mode %s → idle, even with an eligible prompt", (mode, message) => {
    expect(decide(input({ mode }), NOW)).toEqual({ kind: "idle", mode, message });
  });

  it.each([
    [0, false, "Loop stopping: no agents running"],
    [1, false, "Loop stopping: waiting for 1 running agent"],
    [2, true, "Loop stopping: waiting for 3 running agents"],
  ])("stopping with %i executors (planner running: %s) → idle", (executorsRunning, plannerRunning, message) => {
    expect(decide(input({ mode: "stopping", executorsRunning, plannerRunning }), NOW)).toEqual({
      kind: "idle",
      mode: "stopping",
      message,
    });
  });

  it("a running planner blocks every spawn, before capacity and cooldown are looked at", () => {
    const decision = decide(input({ plannerRunning: true, executorsRunning: 3, lastSpawnAt: ago(1) }), NOW);
    expect(decision).toEqual({ kind: "blocked_planner", message: "Planner running: no spawns until it finishes" });
  });

  it("capacity is checked before the cooldown", () => {
    expect(decide(input({ executorsRunning: 3, lastSpawnAt: ago(1) }), NOW).kind).toBe("at_max");
  });

  it("the cooldown is checked before prompts are picked", () => {
    expect(decide(input({ parallelEnabled: false, prompts: [], lastSpawnAt: ago(1) }), NOW).kind).toBe("cooling");
  });
});

describe("decide: capacity", () => {
  it.each([
    { parallelEnabled: true, maxParallel: 3, executorsRunning: 3, message: "At max parallel (3/3 executors)" },
    { parallelEnabled: true, maxParallel: 3, executorsRunning: 4, message: "At max parallel (4/3 executors)" },
    { parallelEnabled: false, maxParallel: 3, executorsRunning: 1, message: "At max parallel (1/1 executors)" },
  ])("$executorsRunning running, parallel $parallelEnabled, max $maxParallel → at_max", (c) => {
    const { parallelEnabled, maxParallel, executorsRunning, message } = c;
    const effectiveMax = parallelEnabled ? maxParallel : 1;
    expect(decide(input({ parallelEnabled, maxParallel, executorsRunning }), NOW)).toEqual({
      kind: "at_max",
      executorsRunning,
      maxParallel: effectiveMax,
      message,
    });
  });

  it.each([
    { parallelEnabled: true, maxParallel: 3, executorsRunning: 2 },
    { parallelEnabled: false, maxParallel: 3, executorsRunning: 0 },
  ])("$executorsRunning running, parallel $parallelEnabled → spawns", (c) => {
    expect(decide(input(c), NOW).kind).toBe("spawn_executor");
  });
});

describe("decide: spawn cooldown (Parallel off: the one slot cools)", () => {
  it.each([
    [1, 9_999, "Spawn cooldown: 10s left"],
    [3_000, 7_000, "Spawn cooldown: 7s left"],
    [2_500, 7_500, "Spawn cooldown: 8s left"],
    [9_999, 1, "Spawn cooldown: 1s left"],
  ])("spawned %i ms ago → cooling for %i ms", (elapsed, remainingMs, message) => {
    expect(decide(input({ parallelEnabled: false, lastSpawnAt: ago(elapsed) }), NOW)).toEqual({ kind: "cooling", remainingMs, message });
  });

  it.each([10_000, 10_001, 60_000])("spawned %i ms ago → cooldown clear", (elapsed) => {
    expect(decide(input({ parallelEnabled: false, lastSpawnAt: ago(elapsed) }), NOW).kind).toBe("spawn_executor");
  });

  it("honours a configured cooldown", () => {
    expect(decide(input({ parallelEnabled: false, spawnCooldownMs: 30_000, lastSpawnAt: ago(20_000) }), NOW)).toMatchObject({
      kind: "cooling",
      remainingMs: 10_000,
    });
  });
});

describe("decide: executor spawn", () => {
  it("spawns the best eligible prompt and names it", () => {
    const prompts = [prompt(1, { priority: 4 }), prompt(5, { priority: 2 }), prompt(3, { priority: 2 })];
    expect(decide(input({ prompts }), NOW)).toEqual({
      kind: "spawn_executor",
      promptId: "p3",
      promptNumber: 3,
      message: "Spawning executor for #3 (P2)",
    });
  });
});

describe("decide: wait", () => {
  it("waits for prompts in progress when nothing is pending", () => {
    const prompts = [prompt(1, { status: "done" }), prompt(2, { status: "in_progress", live: true })];
    expect(decide(input({ prompts, executorsRunning: 1 }), NOW)).toEqual({
      kind: "wait",
      inProgress: 1,
      blocked: [],
      message: "Waiting for 1 prompt in progress",
    });
  });

  it("counts a done prompt whose run is still live as in progress, so no planner spawns yet", () => {
    const prompts = [prompt(1, { status: "done", live: true }), prompt(2, { status: "done" })];
    expect(decide(input({ prompts }), NOW)).toMatchObject({ kind: "wait", inProgress: 1 });
  });

  it("says what blocks each pending prompt", () => {
    const prompts = [
      prompt(1, { status: "failed" }),
      prompt(2, { status: "in_progress" }),
      prompt(3, { dependencies: [1] }),
      prompt(4, { approved: false }),
      prompt(5, { dependencies: [2, 9] }),
      prompt(6, { approved: false, dependencies: [1, 2, 3] }),
    ];
    const decision = decide(input({ prompts }), NOW);
    expect(decision.kind).toBe("wait");
    expect(decision.message).toBe(
      "Waiting: 4 pending prompts blocked: #3 (failed dependency #1), #4 (awaiting approval), " +
        "#5 (unmet dependency #2; missing dependency #9), " +
        "#6 (awaiting approval; failed dependency #1; unmet dependencies #2, #3); 1 prompt in progress",
    );
  });

  it("waits on blocked pending prompts even when nothing is in progress (the planner only runs on an empty queue)", () => {
    const prompts = [prompt(1, { status: "cancelled" }), prompt(2, { dependencies: [1] })];
    expect(decide(input({ prompts }), NOW)).toEqual({
      kind: "wait",
      inProgress: 0,
      blocked: [
        {
          promptNumber: 2,
          awaitingApproval: false,
          retryInMs: 0,
          failedDependencies: [1],
          mergingDependencies: [],
          unmetDependencies: [],
          missingDependencies: [],
        },
      ],
      message: "Waiting: 1 pending prompt blocked: #2 (failed dependency #1)",
    });
  });

  it("a pending prompt with a live run is in progress, not blocked", () => {
    const prompts = [prompt(1, { live: true })];
    expect(decide(input({ prompts }), NOW)).toEqual({
      kind: "wait",
      inProgress: 1,
      blocked: [],
      message: "Waiting for 1 prompt in progress",
    });
  });
});

describe("decide: empty queue", () => {
  const finished = [prompt(1, { status: "done" }), prompt(2, { status: "failed" }), prompt(3, { status: "cancelled" })];

  it("without a planner → all_done", () => {
    expect(decide(input({ prompts: finished, plannerEnabled: false }), NOW)).toEqual({
      kind: "all_done",
      message: "All done: no pending or in-progress prompts and no planner configured",
    });
  });

  it("first planner spawn: no backoff, state recorded", () => {
    expect(decide(input({ prompts: finished }), NOW)).toEqual({
      kind: "spawn_planner",
      planner: { unproductiveSpawns: 0, lastPromptCount: 3, lastSpawnAt: NOW },
      message: "Spawning emergent planner: no pending or in-progress prompts",
    });
  });

  it("spawns the planner on a project with no prompts at all", () => {
    expect(decide(input({ prompts: [] }), NOW)).toMatchObject({
      kind: "spawn_planner",
      planner: { unproductiveSpawns: 0, lastPromptCount: 0, lastSpawnAt: NOW },
    });
  });
});
