import { z } from "zod";
import { getDb, Prisma, type ApprovalState, type PromptOrigin } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";
import { recordActivity } from "@/lib/loop/activity";
import type { Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { requesterOf } from "@/lib/approvals/request";

// One schema for the form and the API.
export const promptInput = z.object({
  title: z.string().trim().min(1, "is required").max(200, "must be at most 200 characters"),
  body: z.string().max(100_000, "must be at most 100000 characters").default(""),
  priority: z.coerce.number().int("must be an integer").min(1, "must be from 1 to 4").max(4, "must be from 1 to 4").default(3),
  dependencies: z.array(z.number().int().min(1, "must be prompt numbers")).max(100).default([]),
  domain: z.string().trim().max(50).optional(),
  number: z.number().int().min(1).optional(),
});

export type PromptInput = z.input<typeof promptInput>;

function approvalFor(policy: string, origin: PromptOrigin): ApprovalState {
  if (policy === "all" || (policy === "planner" && origin === "planner")) return "pending";
  return "not_required";
}

/** Adds a prompt to the project's current planning key and nudges the loop at once. */
export async function createPrompt(actor: Actor, project: { id: string; teamId: string; planningKey: string }, raw: PromptInput) {
  const input = promptInput.parse(raw);
  const db = getDb();
  const settings = await db.projectSettings.findUniqueOrThrow({ where: { projectId: project.id } });
  const isRun = actor.kind === "token" && (await db.apiToken.findUnique({ where: { id: actor.id } }))?.runId;
  const origin: PromptOrigin = isRun ? "planner" : "user";
  for (let attempt = 0; ; attempt++) {
    const last = await db.prompt.findFirst({ where: { projectId: project.id, planningKey: project.planningKey }, orderBy: { number: "desc" }, select: { number: true } });
    const number = input.number ?? (last?.number ?? 0) + 1;
    try {
      const approval = approvalFor(settings.approvalPolicy, origin);
      const prompt = await db.prompt.create({
        data: {
          projectId: project.id, planningKey: project.planningKey, number, title: input.title, body: input.body,
          priority: input.priority, dependencies: input.dependencies, domain: input.domain, origin,
          approval, maxAttempts: settings.maxAttempts,
          createdById: actor.kind === "user" ? actor.id : null,
          // The inbox entry commits with the prompt, so a prompt never waits unseen.
          ...(approval === "pending" ? { approvals: { create: { teamId: project.teamId, projectId: project.id, kind: "prompt_run", requestedBy: requesterOf(actor) } } } : {}),
        },
      });
      await recordAudit({ teamId: project.teamId, by: actor, action: "prompt.created", target: { type: "prompt", id: prompt.id }, after: { number: prompt.number, title: prompt.title, priority: prompt.priority, approval } });
      await recordActivity(project, "promptsChange", `P${prompt.number} ${prompt.title} added`, { promptId: prompt.id });
      await enqueueTick(project.id, "prompt created");
      return prompt;
    } catch (err) {
      const taken = err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
      if (!taken) throw err;
      if (input.number !== undefined) throw new z.ZodError([{ code: "custom", path: ["number"], message: `P${number} already exists`, input: number }]);
      if (attempt >= 5) throw err;
    }
  }
}
