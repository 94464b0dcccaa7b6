import { z } from "zod";
import { wholeNumber } from "@/lib/validation/numbers";

export const MAX_TOKENS_CEILING = 1e12;
export const MAX_COST_CEILING = 1e6;
export const MAX_TOOL_CALLS_CEILING = 1e6;
export const MAX_TURNS_CEILING = 1e6;
export const MIN_WALL_TIME_MS = 60_000;
export const MAX_WALL_TIME_MS = 7 * 86_400_000;

// An empty field or null means "no ceiling"; 0 is a ceiling that refuses runs.
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" || v === undefined ? null : v), schema.nullable());

// Digits with an optional fraction only: "1e400", "NaN" and "Infinity" stay strings and are refused.
const dollars = z.preprocess(
  (v) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z.number({ error: "must be a number" })
    .min(0, `must be from 0 to ${MAX_COST_CEILING} USD`)
    .max(MAX_COST_CEILING, `must be from 0 to ${MAX_COST_CEILING} USD`),
);

/** A price in USD per million tokens. */
export const usdPerMillion = dollars;

/** The ceiling fields shared by the profile form, the project settings form and the API. */
export const ceilingShape = {
  maxTokens: optional(wholeNumber(0, MAX_TOKENS_CEILING, " tokens")),
  maxCostUsd: optional(dollars),
  maxToolCalls: optional(wholeNumber(0, MAX_TOOL_CALLS_CEILING)),
  maxTurns: optional(wholeNumber(0, MAX_TURNS_CEILING)),
};

/** Wall time per run in ms: empty falls back (the project to its profile, the profile to 45 minutes). */
export const wallTimeShape = {
  maxRunDurationMs: optional(wholeNumber(MIN_WALL_TIME_MS, MAX_WALL_TIME_MS, " ms")),
};

export const loopLimitShape = {
  loopRepeatLimit: wholeNumber(2, 1000, "", "range"),
  loopFailureLimit: wholeNumber(2, 1000, "", "range"),
};

/** Budget fields in USD: empty means no budget, 0 means runs are refused. */
export const budgetShape = {
  dailyBudgetUsd: optional(dollars),
  monthlyBudgetUsd: optional(dollars),
};
