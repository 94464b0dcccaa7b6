import { z } from "zod";
import { getDb, type Prisma } from "@/lib/db";
import type { AuditBy } from "@/lib/audit/record";
import type { PromptModel as Prompt } from "@/lib/db";
import { announceActivity } from "@/lib/activity/record";
import { publishOutbox } from "@/lib/queues";
import { inTransaction, insertPrompt, isNumberTaken, promptAddedMessage, type NewPrompt } from "@/lib/prompts/create-statement";
import { promptNumber } from "@/lib/prompts/schema";
import { wholeNumber } from "@/lib/validation/numbers";
import { requireKnownDependencies } from "@/lib/prompts/dependencies";

// One schema for the form and the API.
export const promptInput = z.object({
  title: z.string().trim().min(1, "is required").max(200, "must be at most 200 characters"),
  body: z.string().max(100_000, "must be at most 100000 characters").default(""),
  priority: wholeNumber(1, 4).default(3),
  dependencies: z.array(promptNumber).max(100).default([]),
  domain: z.string().trim().max(50).optional(),
  number: promptNumber.optional(),
});

export type PromptInput = z.input<typeof promptInput>;

export interface CreateOptions {
  /** Writes that must commit with the prompt or not at all (where it came from, its thread). */
  alongside?: (tx: Prisma.TransactionClient, prompt: Prompt) => Promise<void>;
  /** The runner agent a request was routed to: the prompt's run goes to it and no one else. */
  pinnedAgentId?: string;
  /** Where the request was asked (a Slack message, a GitHub issue or comment), shown on the board. */
  sourceUrl?: string | null;
}

// Prompts created at once read the same last number: each round, one of them takes it and the
// others try again (one statement each), so a burst of n needs up to n rounds.
const NUMBER_ATTEMPTS = 20;

/**
 * Adds a prompt to the project's current planning key and nudges the loop at once: one statement
 * (lib/prompts/create-statement.ts) writes it with its approval, audit and activity entries and
 * wake-ups, in the transaction of `alongside`'s writes when there are some.
 */
export async function createPrompt(actor: AuditBy, project: { id: string; teamId: string; planningKey: string }, raw: PromptInput, opts: CreateOptions = {}) {
  const input = promptInput.parse(raw);
  await requireKnownDependencies(project, input.dependencies);
  const fields: NewPrompt = { ...input, projectId: project.id, teamId: project.teamId, planningKey: project.planningKey, pinnedAgentId: opts.pinnedAgentId, sourceUrl: opts.sourceUrl };
  for (let attempt = 0; ; attempt++) {
    try {
      // The prompt and its wake-up commit together: Redis being away neither fails the
      // request nor loses the nudge (the outbox relay delivers it when Redis answers).
      const { prompt, outbox } = opts.alongside
        ? await getDb().$transaction(async (tx) => {
          const made = await insertPrompt(actor, fields, inTransaction(tx));
          await opts.alongside!(tx, made.prompt);
          return made;
        })
        : await insertPrompt(actor, fields);
      await Promise.all([announceActivity(project, "promptsChange", promptAddedMessage(prompt), { promptId: prompt.id }), publishOutbox(outbox)]);
      return prompt;
    } catch (err) {
      // Only the prompt's number was taken; a conflict of an `alongside` write is the caller's.
      if (!isNumberTaken(err)) throw err;
      if (input.number !== undefined) throw new z.ZodError([{ code: "custom", path: ["number"], message: `#${input.number} already exists`, input: input.number }]);
      if (attempt >= NUMBER_ATTEMPTS) throw err;
    }
  }
}
