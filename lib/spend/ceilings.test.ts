import { describe, expect, it } from "vitest";
import { budgetedCeilings, DEFAULT_WALL_TIME_MS, formatAmount, refusal, runCeilings, runWallTimeMs, unenforceable } from "@/lib/spend/ceilings";

const none = { maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null };

describe("budgetedCeilings", () => {
  const own = { maxTokens: 1000, maxCostUsd: 2, maxToolCalls: 3, maxTurns: 4 };
  it("keeps the run's own ceilings when no budget reserved anything, or when its cost ceiling is within the reservation", () => {
    expect(budgetedCeilings(own, null)).toEqual({ ceilings: own });
    expect(budgetedCeilings(own, 2)).toEqual({ ceilings: own });
    expect(budgetedCeilings(own, 5)).toEqual({ ceilings: own });
  });

  it("stops the meter at the reservation when it is below the run's own cost ceiling, or the run has none, and says why", () => {
    expect(budgetedCeilings(own, 1.5)).toEqual({ ceilings: { ...own, maxCostUsd: 1.5 }, costLimit: "the budget left for this run" });
    expect(budgetedCeilings(none, 0.25)).toEqual({ ceilings: { ...none, maxCostUsd: 0.25 }, costLimit: "the budget left for this run" });
    expect(budgetedCeilings(none, 0)).toEqual({ ceilings: { ...none, maxCostUsd: 0 }, costLimit: "the budget left for this run" });
  });
});

describe("runCeilings", () => {
  it("takes each of the project's settings where it has one, else the profile's", () => {
    const profile = { maxTokens: 1, maxCostUsd: 2, maxToolCalls: 3, maxTurns: 4 };
    expect(runCeilings(profile, none)).toEqual(profile);
    expect(runCeilings(profile, { maxTokens: 10, maxCostUsd: 20, maxToolCalls: 30, maxTurns: 40 })).toEqual({ maxTokens: 10, maxCostUsd: 20, maxToolCalls: 30, maxTurns: 40 });
    // 0 is a setting (runs refused), not an absent one.
    expect(runCeilings(profile, { maxTokens: 0, maxCostUsd: 0, maxToolCalls: 0, maxTurns: 0 })).toEqual({ maxTokens: 0, maxCostUsd: 0, maxToolCalls: 0, maxTurns: 0 });
  });
});

describe("runWallTimeMs", () => {
  it.each([
    [{ maxRunDurationMs: 60_000 }, { maxRunDurationMs: 120_000 }, 120_000],
    [{ maxRunDurationMs: 60_000 }, { maxRunDurationMs: null }, 60_000],
    [{ maxRunDurationMs: null }, { maxRunDurationMs: null }, 2_700_000],
    [null, { maxRunDurationMs: null }, 2_700_000],
  ])("profile %j, project %j: %i ms", (profile, project, ms) => expect(runWallTimeMs(profile, project)).toBe(ms));

  it("defaults to 45 minutes", () => expect(DEFAULT_WALL_TIME_MS).toBe(45 * 60_000));
});

describe("formatAmount", () => {
  it.each([
    ["maxCostUsd", 1.005, undefined, "$1.00"],
    ["maxCostUsd", 0.01234, 4, "$0.0123"],
    ["maxTokens", 1234567.6, undefined, "1,234,568"],
    ["maxToolCalls", 12, undefined, "12"],
  ] as const)("%s %d (%s digits): %s", (name, value, cents, text) => expect(formatAmount(name, value, cents)).toBe(text));
});

describe("unenforceable and refusal", () => {
  it("names the first ceiling the adapter cannot measure, and none it can or that is unset", () => {
    expect(unenforceable("codex", { maxTokens: 5, maxTurns: 3 })).toEqual({
      field: "maxTurns",
      message: "cannot be enforced: the codex adapter reports no turns Ringmaster can read (leave it empty, or 0 to refuse runs)",
    });
    expect(unenforceable("codex", { maxTokens: 5, maxTurns: null })).toBeNull();
    expect(unenforceable("aider", { maxTokens: 0, maxCostUsd: 1 })).toEqual({
      field: "maxCostUsd",
      message: "cannot be enforced: the aider adapter reports no cost Ringmaster can read (leave it empty, or 0 to refuse runs)",
    });
    expect(unenforceable("an-unknown-cli", { maxToolCalls: 2 })?.field).toBe("maxToolCalls");
    expect(unenforceable("claude", { maxTokens: 1, maxCostUsd: 1, maxToolCalls: 1, maxTurns: 1 })).toBeNull();
  });

  it("refuses a zero ceiling first, then one the adapter cannot enforce", () => {
    expect(refusal(none, "aider")).toBeNull();
    expect(refusal({ ...none, maxToolCalls: 0, maxTurns: 0 }, "claude")).toBe("refused: the run limit for tool calls is 0, which means runs are refused");
    expect(refusal({ ...none, maxTokens: 100, maxTurns: 0 }, "aider")).toBe("refused: the run limit for turns is 0, which means runs are refused");
    expect(refusal({ ...none, maxTokens: 100 }, "shell")).toBe(
      "refused: the run limit for tokens cannot be enforced: the shell adapter reports no tokens Ringmaster can read (leave it empty, or 0 to refuse runs)");
    expect(refusal({ ...none, maxTokens: 100, maxTurns: 5 }, "claude")).toBeNull();
  });
});
