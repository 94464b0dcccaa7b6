import { z } from "zod";
import { MAX_INT4 } from "@/lib/validation/safe-text";

export const PROMPT_STATUSES = ["pending", "in_progress", "done", "failed", "cancelled"] as const;
export type PromptStatus = (typeof PROMPT_STATUSES)[number];

export type PromptPriority = 1 | 2 | 3 | 4;

export const promptNumber = z.number({ error: "must be a prompt number" }).int("must be a whole number")
  .min(1, "must be a prompt number (1 or more)").max(MAX_INT4, `must be at most ${MAX_INT4}`);

// Number stays optional here: a file may carry it only in its name (NN-slug.md).
export const promptFrontmatterSchema = z.object({
  number: promptNumber.optional(),
  title: z.string().trim().min(1),
  status: z.enum(PROMPT_STATUSES).default("pending"),
  priority: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).default(3),
  // A bare `dependencies:` line is YAML null; authors mean "none".
  dependencies: z
    .array(promptNumber)
    .nullable()
    .default([])
    .transform((deps) => deps ?? []),
});

// Zod's own wording ("expected number, received string") does not say what a valid value is.
export const FIELD_RULES: Record<keyof z.input<typeof promptFrontmatterSchema>, string> = {
  number: `must be an integer from 1 to ${MAX_INT4}`,
  title: "must be a non-empty string",
  status: `must be one of ${PROMPT_STATUSES.join(", ")}`,
  priority: "must be an integer from 1 to 4",
  dependencies: `must be a list of prompt numbers (integers from 1 to ${MAX_INT4})`,
};

export interface PromptFile {
  number: number;
  title: string;
  status: PromptStatus;
  priority: PromptPriority;
  dependencies: number[];
  body: string;
}
