import type { z } from "zod";
import { fieldLabel } from "@/lib/validation/labels";

export interface FieldIssue {
  /** The input at fault as the API names it (`maxParallel`, `egressRules.1`): for the form to place it. */
  field: string;
  /** A sentence for a person: the field's label and what a valid value is. */
  message: string;
}

type Issue = z.core.$ZodIssue;

const TYPE_WORDS: Record<string, string> = {
  string: "text", number: "a number", int: "a whole number", boolean: "yes or no (true or false)", array: "a list",
  object: "an object", record: "an object", date: "a date",
};

// Zod's own wording ("Too small: expected number to be >=1") speaks of types and operators; a
// schema's own message ("must be at most 100 characters") already says what is valid.
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;

/** What a valid value is, without the field's name (for a message placed beside its field). */
export function rule(issue: Issue): string {
  if (issue.message && !ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      // Issues do not carry the input unless asked; Zod's own message says what it received.
      return /received undefined$/.test(issue.message) ? "is required" : `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? "is required" : `must be at least ${issue.minimum} characters`;
      if (issue.origin === "array" || issue.origin === "set") return `needs at least ${issue.minimum} entries`;
      return `must be ${issue.inclusive ? "≥" : ">"} ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
      if (issue.origin === "array" || issue.origin === "set") return `may hold at most ${issue.maximum} entries`;
      return `must be ${issue.inclusive ? "≤" : "<"} ${issue.maximum}`;
    case "invalid_value":
      return `must be one of: ${issue.values.map(String).join(", ")}`;
    case "invalid_format":
      return issue.format === "email" ? "must be a valid email address" : issue.format === "url" ? "must be an absolute URL" : `is not a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_union":
      return "has a value of the wrong kind";
    default:
      return "is not valid";
  }
}

/** One sentence per bad input, the first issue of each field only, in the order the schema found them. */
export function describeIssues(err: z.ZodError): FieldIssue[] {
  const out = new Map<string, FieldIssue>();
  for (const issue of err.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const path = [...issue.path, key].join(".");
        if (!out.has(path)) out.set(path, { field: path, message: `${fieldLabel([...issue.path, key])} is not something this request accepts` });
      }
      continue;
    }
    const field = issue.path.map(String).join(".") || "body";
    if (!out.has(field)) out.set(field, { field, message: `${issue.path.length ? fieldLabel(issue.path) : "The request"} ${rule(issue)}` });
  }
  return [...out.values()];
}
