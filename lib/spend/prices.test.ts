import { describe, expect, it } from "vitest";
import { costOf, overrideTable, priceOf, UNKNOWN_MODEL_PRICE } from "@/lib/spend/prices";

describe("prices", () => {
  it("prices a dated model by its family, the longest prefix winning", () => {
    expect(priceOf("claude-sonnet-4-5-20250929")).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(priceOf("claude-opus-4-1-20250805").input).toBe(15);
    expect(priceOf("claude-opus-4-5-20251101").input).toBe(5);
    expect(priceOf("gpt-5-mini").input).toBe(0.25);
    expect(priceOf("gpt-5-codex").input).toBe(1.25);
    expect(priceOf("models/gemini-2.5-flash-lite").output).toBe(0.4);
  });

  it("prices an unknown model as the dearest, so a cost ceiling fails closed", () => {
    expect(priceOf("mystery-model")).toBe(UNKNOWN_MODEL_PRICE);
    expect(priceOf(undefined)).toBe(UNKNOWN_MODEL_PRICE);
  });

  it("adds up input, output and cache tokens at their own prices", () => {
    // 1M in × $3 + 100k out × $15 + 1M cache reads × $0.30 + 100k cache writes × $3.75
    expect(costOf("claude-sonnet-4-5", { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 100_000 })).toBeCloseTo(3 + 1.5 + 0.3 + 0.375, 10);
  });

  it("prefers a team's own price, by the longest prefix, over the shipped one", () => {
    const team = overrideTable([{ model: "Claude-Sonnet-4-5", input: 2, output: 10, cached: 0.5 }, { model: "mystery", input: 1, output: 1, cached: 1 }]);
    expect(priceOf("claude-sonnet-4-5-20250929", team)).toEqual({ input: 2, output: 10, cacheRead: 0.5, cacheWrite: 2 });
    expect(priceOf("mystery-model", team).output).toBe(1);
    // Models the team left alone keep the list price.
    expect(priceOf("claude-sonnet-4-20250514", team).input).toBe(3);
    expect(costOf("claude-sonnet-4-5", { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 1_000_000 }, team)).toBeCloseTo(2 + 1 + 0.5, 10);
  });
});
