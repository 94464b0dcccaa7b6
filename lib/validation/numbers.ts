import { z } from "zod";

/**
 * A whole number from a JSON number or a form's digits. Unlike z.coerce.number(), `true`,
 * `null` or `[]` are refused rather than read as 1 or 0.
 */
export const wholeNumber = (min: number, max: number, unit = "", wording: "range" | "bounds" = "range") =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z.number({ error: "must be a number" }).int("must be a whole number")
      .min(min, wording === "range" ? `must be from ${min} to ${max}${unit}` : `must be at least ${min}${unit}`)
      .max(max, wording === "range" ? `must be from ${min} to ${max}${unit}` : `must be at most ${max}${unit}`),
  );
