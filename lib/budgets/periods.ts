/** Budgets run per UTC day and UTC month, so every worker and runner agrees on the period. */
export const PERIODS = ["day", "month"] as const;
export type Period = (typeof PERIODS)[number];

export function periodStart(period: Period, now: Date): Date {
  return period === "day"
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export const PERIOD_WORDS: Record<Period, string> = { day: "daily", month: "monthly" };

/** Alert thresholds in percent of a budget; each fires once per period. */
export const ALERT_THRESHOLDS = [80, 90, 100] as const;

export const usd = (v: number) => `$${v.toFixed(2)}`;

// Sums of float dollars drift (ten $0.10 holds add up to $0.9999999999999999): amounts within
// a millionth of a cent are equal.
const EPSILON = 1e-8;
export const atLeast = (amount: number, limit: number) => amount >= limit - EPSILON;
