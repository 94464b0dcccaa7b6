import { describe, expect, it } from "vitest";
import { blockedPrompts, pickNextPrompt } from "@/lib/loop/pick-next-prompt";
import type { PromptView } from "@/lib/loop/types";

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

const NOW = new Date("2026-01-01T12:00:00.000Z");
const pickedNumber = (prompts: PromptView[]) => pickNextPrompt(prompts, NOW)?.number ?? null;

describe("pickNextPrompt", () => {
  it("returns null for an empty list", () => {
    expect(pickNextPrompt([], NOW)).toBeNull();
  });

  it("starts nothing while the first prompt in order waits for its dependency's merge", () => {
    expect(pickedNumber([prompt(1, { status: "in_progress", merging: true }), prompt(2, { dependencies: [1] })])).toBeNull();
  });

  it("returns the prompt object itself", () => {
    const only = prompt(7);
    expect(pickNextPrompt([only], NOW)).toBe(only);
  });

  it.each([
    ["P1 beats P2 beats P3 beats P4", [prompt(1, { priority: 4 }), prompt(2, { priority: 3 }), prompt(3, { priority: 1 }), prompt(4, { priority: 2 })], 3],
    ["lowest number first within a priority (FIFO)", [prompt(9, { priority: 2 }), prompt(4, { priority: 2 }), prompt(6, { priority: 2 })], 4],
    ["priority before number", [prompt(1, { priority: 3 }), prompt(20, { priority: 2 })], 20],
    ["input order does not matter", [prompt(5), prompt(2), prompt(3)], 2],
  ])("%s", (_name, prompts, expected) => {
    expect(pickedNumber(prompts)).toBe(expected);
  });

  it.each(["in_progress", "done", "failed", "cancelled"] as const)("skips %s prompts", (status) => {
    expect(pickedNumber([prompt(1, { status, priority: 1 }), prompt(2)])).toBe(2);
  });

  it("skips prompts awaiting approval", () => {
    expect(pickedNumber([prompt(1, { approved: false }), prompt(2)])).toBe(2);
    expect(pickedNumber([prompt(1, { approved: false })])).toBeNull();
  });

  it("skips pending prompts that already have a live run", () => {
    expect(pickedNumber([prompt(1, { live: true }), prompt(2)])).toBe(2);
  });

  it.each([
    ["all dependencies done", [prompt(1, { status: "done" }), prompt(2, { status: "done" }), prompt(3, { dependencies: [1, 2] })], 3],
    ["a dependency still pending", [prompt(1, { approved: false }), prompt(2, { dependencies: [1] })], null],
    ["a dependency in progress", [prompt(1, { status: "in_progress" }), prompt(2, { dependencies: [1] })], null],
    ["a failed dependency", [prompt(1, { status: "failed" }), prompt(2, { dependencies: [1] })], null],
    ["a cancelled dependency", [prompt(1, { status: "cancelled" }), prompt(2, { dependencies: [1] })], null],
    ["a dependency that does not exist", [prompt(2, { dependencies: [1] })], null],
    ["one of two dependencies unmet", [prompt(1, { status: "done" }), prompt(2, { status: "in_progress" }), prompt(3, { dependencies: [1, 2] })], null],
  ])("%s", (_name, prompts, expected) => {
    expect(pickedNumber(prompts)).toBe(expected);
  });

  it("a blocked P1 does not hold back an eligible P4", () => {
    const prompts = [prompt(1, { priority: 1, dependencies: [3] }), prompt(2, { priority: 4 }), prompt(3, { status: "in_progress" })];
    expect(pickedNumber(prompts)).toBe(2);
  });
});

describe("blockedPrompts", () => {
  it("lists every reason of every blocked pending prompt, by number", () => {
    const prompts = [
      prompt(6, { approved: false, dependencies: [1, 2, 8] }),
      prompt(1, { status: "failed" }),
      prompt(2, { status: "in_progress" }),
      prompt(3, { status: "done" }),
      prompt(4, { dependencies: [3] }),
      prompt(5, { live: true, approved: false }),
      prompt(7, { status: "done", dependencies: [1] }),
    ];
    expect(blockedPrompts(prompts, NOW)).toEqual([
      {
        promptNumber: 6,
        awaitingApproval: true,
        retryInMs: 0,
        failedDependencies: [1],
        mergingDependencies: [],
        unmetDependencies: [2],
        missingDependencies: [8],
      },
    ]);
  });

  it("sorts several blocked prompts by number, whatever their order in the list; only a dependency in progress is waited on as merging", () => {
    const prompts = [
      prompt(12, { approved: false }),
      prompt(3, { status: "in_progress", merging: true }),
      prompt(9, { dependencies: [3] }),
      prompt(4, { status: "in_progress" }),
      prompt(10, { dependencies: [4] }),
      // Done: its merge flag (a stale one) holds nothing back.
      prompt(5, { status: "done", merging: true }),
      prompt(11, { dependencies: [5] }),
    ];
    expect(blockedPrompts(prompts, NOW).map((b) => [b.promptNumber, b.mergingDependencies, b.unmetDependencies])).toEqual([
      [9, [3], []],
      [10, [], [4]],
      [12, [], []],
    ]);
  });

  it("is empty when every pending prompt is eligible", () => {
    expect(blockedPrompts([prompt(1), prompt(2, { dependencies: [3] }), prompt(3, { status: "done" })], NOW)).toEqual([]);
  });
});
