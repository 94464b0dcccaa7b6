import { z } from "zod";

export const PROMPT_STATUSES = ["pending", "in_progress", "done", "failed", "cancelled"] as const;
export type PromptStatus = (typeof PROMPT_STATUSES)[number];

export type PromptPriority = 1 | 2 | 3 | 4;

const promptNumber = z.number().int().min(1);

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
  number: "must be an integer ≥ 1",
  title: "must be a non-empty string",
  status: `must be one of ${PROMPT_STATUSES.join(", ")}`,
  priority: "must be an integer from 1 to 4",
  dependencies: "must be a list of prompt numbers (integers ≥ 1)",
};

export interface PromptFile {
  number: number;
  title: string;
  status: PromptStatus;
  priority: PromptPriority;
  dependencies: number[];
  body: string;
}
