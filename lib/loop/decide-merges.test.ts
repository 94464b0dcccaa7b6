import { describe, expect, it } from "vitest";
import { decide } from "@/lib/loop/decide";
import { retryBackoffMs } from "@/lib/runs/backoff";
import type { DecisionInput, PromptView } from "@/lib/loop/types";

// A fake clock: every case states the instant it is decided at.
const T0 = new Date("2026-01-01T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

function prompt(number: number, overrides: Partial<PromptView> = {}): PromptView {
  return { id: `p${number}`, number, status: "pending", priority: 3, dependencies: [], approved: true, live: false, merging: false, retryAt: null, ...overrides };
}

function input(overrides: Partial<DecisionInput> = {}): DecisionInput {
  return {
    mode: "running", parallelEnabled: true, maxParallel: 3, spawnCooldownMs: 10_000, lastSpawnAt: null,
    plannerEnabled: false, plannerRunning: false, executorsRunning: 0, mergesPending: 0, pullsAwaitingMerge: [], prompts: [],
    planner: { unproductiveSpawns: 0, lastPromptCount: null, lastSpawnAt: null }, ...overrides,
  };
}

// #1 (P3) ran; #2 (P1) depends on it; #3 (P4) depends on nothing.
const base = (one: Partial<PromptView>) => [prompt(1, one), prompt(2, { priority: 1, dependencies: [1] }), prompt(3, { priority: 4 })];

describe("decide: seed 003's order holds between a run's end and its merge", () => {
  // "Ready" in the gap: a prompt whose dependencies are done or merging is ready, but starts only once
  // the merge lands; while it waits first in line, nothing ranked below it starts.
  it.each([
    ["#1 running", { status: "in_progress", live: true }, 1, 0, { kind: "spawn_executor", promptNumber: 3 }],
    ["#1 succeeded, merge pending", { status: "in_progress", merging: true }, 0, 1, { kind: "awaiting_merge", promptNumber: 2, mergesPending: 1 }],
    ["#1 merged", { status: "done" }, 0, 0, { kind: "spawn_executor", promptNumber: 2 }],
  ] as const)("%s", (_name, one, executorsRunning, mergesPending, expected) => {
    expect(decide(input({ prompts: base(one), executorsRunning, mergesPending }), at(0))).toMatchObject(expected);
  });

  it("says whom the wait is for", () => {
    expect(decide(input({ prompts: base({ status: "in_progress", merging: true }), mergesPending: 1 }), at(0)).message)
      .toBe("Waiting for #1 to merge: #2 (P1) depends on it and goes next");
  });

  it("a prompt ranked above the waiting one still starts: the wait holds back only what ranks below", () => {
    const prompts = [prompt(1, { status: "in_progress", merging: true }), prompt(2, { priority: 2, dependencies: [1] }), prompt(3, { priority: 4 }), prompt(4, { priority: 1 })];
    expect(decide(input({ prompts, mergesPending: 1 }), at(0))).toMatchObject({ kind: "spawn_executor", promptNumber: 4 });
  });

  it("a merging dependency of a prompt that also has an unmet one does not hold the queue", () => {
    const prompts = [prompt(1, { status: "in_progress", merging: true }), prompt(5, { status: "in_progress", live: true }),
      prompt(2, { priority: 1, dependencies: [1, 5] }), prompt(3, { priority: 4 })];
    expect(decide(input({ prompts, executorsRunning: 1, mergesPending: 1 }), at(0))).toMatchObject({ kind: "spawn_executor", promptNumber: 3 });
  });

  it("a merge that ended in conflict sends the prompt back to pending: its dependents are unmet again", () => {
    const prompts = base({ status: "pending" });
    expect(decide(input({ prompts }), at(0))).toMatchObject({ kind: "spawn_executor", promptNumber: 1 });
  });
});

describe("decide: Parallel off holds the one slot until the merge lands", () => {
  it.each([
    [0, 0, "spawn_executor"],
    [1, 0, "at_max"],
    [0, 1, "awaiting_merge"],
  ] as const)("%i running, %i merge pending → %s", (executorsRunning, mergesPending, kind) => {
    const prompts = [prompt(1, { status: "in_progress" }), prompt(2), prompt(3)];
    expect(decide(input({ parallelEnabled: false, prompts, executorsRunning, mergesPending }), at(0)).kind).toBe(kind);
  });

  it("explains the wait", () => {
    expect(decide(input({ parallelEnabled: false, prompts: [prompt(2)], mergesPending: 1 }), at(0))).toEqual({
      kind: "awaiting_merge", mergesPending: 1, promptNumber: null,
      message: "Waiting for 1 merge to land: Parallel is off, so the next run starts from a base that has it",
    });
  });

  it("with Parallel on a pending merge holds no slot", () => {
    expect(decide(input({ prompts: [prompt(2)], mergesPending: 2 }), at(0))).toMatchObject({ kind: "spawn_executor", promptNumber: 2 });
  });

  it("an open PR holding a prompt's pushed work holds the slot the same way, named by its number", () => {
    const prompts = [prompt(1, { status: "in_progress" }), prompt(2)];
    expect(decide(input({ parallelEnabled: false, prompts, pullsAwaitingMerge: [7, 9] }), at(0))).toEqual({
      kind: "awaiting_merge", mergesPending: 2, promptNumber: null,
      message: "Waiting for PR #7, PR #9 to merge: Parallel is off, so the next run starts from a base that has it (turn Parallel on to work ahead)",
    });
  });

  it("with Parallel on an open PR holds no slot", () => {
    const prompts = [prompt(1, { status: "in_progress" }), prompt(2)];
    expect(decide(input({ prompts, pullsAwaitingMerge: [7] }), at(0))).toMatchObject({ kind: "spawn_executor", promptNumber: 2 });
  });
});

describe("decide: the spawn cooldown is per slot", () => {
  it("Parallel on: a spawn 1 s ago holds only its own slot; a free one starts the ready prompt", () => {
    expect(decide(input({ executorsRunning: 1, lastSpawnAt: at(-1_000), prompts: [prompt(2)] }), at(0)))
      .toMatchObject({ kind: "spawn_executor", promptNumber: 2 });
  });

  it("Parallel off: the one slot cools", () => {
    expect(decide(input({ parallelEnabled: false, lastSpawnAt: at(-1_000), prompts: [prompt(2)] }), at(0)))
      .toMatchObject({ kind: "cooling", remainingMs: 9_000 });
  });
});

describe("decide: a failed attempt backs off", () => {
  const failedOnce = prompt(1, { priority: 1, retryAt: at(10_000) });

  it.each([
    [0, "spawn_executor", 2],
    [9_999, "spawn_executor", 2],
    [10_000, "spawn_executor", 1],
  ] as const)("at +%i ms → %s #%i", (elapsed, kind, promptNumber) => {
    expect(decide(input({ prompts: [failedOnce, prompt(2, { priority: 4 })] }), at(elapsed))).toMatchObject({ kind, promptNumber });
  });

  it("says how long the retry waits when nothing else can run", () => {
    expect(decide(input({ prompts: [failedOnce] }), at(2_500)).message)
      .toBe("Waiting: 1 pending prompt blocked: #1 (retry in 8s after a failed attempt)");
  });

  it.each([[1, 10_000], [2, 20_000], [3, 40_000], [5, 160_000], [9, 160_000]])("after %i failed attempts → %i ms", (n, ms) => {
    expect(retryBackoffMs(10_000, n)).toBe(ms);
  });
});
