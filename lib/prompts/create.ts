import { z } from "zod";
import { getDb, Prisma, type PromptOrigin } from "@/lib/db";
import type { AuditBy } from "@/lib/audit/record";
import type { PromptModel as Prompt } from "@/lib/db";
import { isAgent, promptApproval, requesterOf } from "@/lib/approvals/request";
import { commitChange } from "@/lib/activity/change";
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

/** Adds a prompt to the project's current planning key and nudges the loop at once. */
export async function createPrompt(actor: AuditBy, project: { id: string; teamId: string; planningKey: string }, raw: PromptInput, opts: CreateOptions = {}) {
  const input = promptInput.parse(raw);
  const db = getDb();
  const lastNumber = () => db.prompt.findFirst({ where: { projectId: project.id, planningKey: project.planningKey }, orderBy: { number: "desc" }, select: { number: true } });
  // Independent reads, side by side (each is a round trip to Postgres on the path of every new prompt).
  const [, settings, byAgent, firstLast] = await Promise.all([
    requireKnownDependencies(project, input.dependencies),
    db.projectSettings.findUniqueOrThrow({ where: { projectId: project.id } }),
    isAgent(actor),
    input.number === undefined ? lastNumber() : null,
  ]);
  const origin: PromptOrigin = byAgent ? "planner" : "user";
  for (let attempt = 0; ; attempt++) {
    const last = attempt === 0 ? firstLast : input.number === undefined ? await lastNumber() : null;
    const number = input.number ?? (last?.number ?? 0) + 1;
    try {
      const approval = promptApproval(settings.approvalPolicy, byAgent);
      // The prompt and its wake-up commit together: Redis being away neither fails the
      // request nor loses the nudge (the outbox relay delivers it when Redis answers).
      return await commitChange(project, async (tx) => {
        const prompt = await tx.prompt.create({
          data: {
            projectId: project.id, planningKey: project.planningKey, number, title: input.title, body: input.body,
            priority: input.priority, dependencies: input.dependencies, domain: input.domain, origin,
            approval, maxAttempts: settings.maxAttempts, pinnedAgentId: opts.pinnedAgentId ?? null, sourceUrl: opts.sourceUrl ?? null,
            createdById: actor.kind === "user" ? actor.id : null,
            // The inbox entry commits with the prompt, so a prompt never waits unseen.
            ...(approval === "pending" ? { approvals: { create: { teamId: project.teamId, projectId: project.id, kind: "prompt_run", requestedBy: requesterOf(actor) } } } : {}),
          },
        });
        await opts.alongside?.(tx, prompt);
        return prompt;
      }, (prompt) => ({
        audit: { by: actor, action: "prompt.created", target: { type: "prompt", id: prompt.id }, after: { number: prompt.number, title: prompt.title, priority: prompt.priority, approval } },
        activity: ["promptsChange", `#${prompt.number} ${prompt.title} added`, { promptId: prompt.id }],
        nudge: "prompt created",
        addsWork: true,
      }));
    } catch (err) {
      // Only the prompt's number was taken; a conflict of an `alongside` write is the caller's.
      const taken = err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002" && (err.meta?.modelName ?? "Prompt") === "Prompt";
      if (!taken) throw err;
      if (input.number !== undefined) throw new z.ZodError([{ code: "custom", path: ["number"], message: `#${number} already exists`, input: number }]);
      if (attempt >= 5) throw err;
    }
  }
}
