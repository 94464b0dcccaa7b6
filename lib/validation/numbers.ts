import { z } from "zod";

/**
 * A whole number from a JSON number or a form's digits. Unlike z.coerce.number(), `true`,
 * `null` or `[]` are refused rather than read as 1 or 0.
 */
export const wholeNumber = (min: number, max: number, unit = "", wording: "range" | "bounds" = "range") => {
  const whole = wording === "range" ? `must be a whole number from ${min} to ${max}${unit}` : "must be a whole number";
  return z.preprocess(
    (v) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z.number({ error: whole }).int(whole)
      .min(min, wording === "range" ? whole : `must be a whole number ≥ ${min}${unit}`)
      .max(max, wording === "range" ? whole : `must be a whole number ≤ ${max}${unit}`),
  );
};
