import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { SYSTEM, type AuditBy } from "@/lib/audit/record";
import { promptInput } from "@/lib/prompts/create";
import { AccessError } from "@/lib/auth/access";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { DomainError } from "@/lib/errors";
import { commitChange } from "@/lib/activity/change";
import { requireKnownDependencies } from "@/lib/prompts/dependencies";

export const promptPatch = promptInput.pick({ title: true, body: true, priority: true, dependencies: true, domain: true }).partial().strict();

export class PromptStateError extends DomainError {
  constructor(message: string) {
    super(409, "conflict", message);
  }
}

type Project = { id: string; teamId: string };

async function requirePrompt(project: Project, promptId: string) {
  const prompt = await getDb().prompt.findFirst({ where: { id: promptId, projectId: project.id } });
  if (!prompt) throw new AccessError(404, "prompt not found");
  return prompt;
}

/** Edits a prompt that has not started; a running prompt's text is what its agent was given. */
export async function editPrompt(project: Project, promptId: string, raw: unknown, by: AuditBy = SYSTEM) {
  const patch = promptPatch.parse(raw);
  const prompt = await requirePrompt(project, promptId);
  if (patch.dependencies?.includes(prompt.number)) {
    throw new z.ZodError([{ code: "custom", path: ["dependencies"], message: "cannot include the prompt itself", input: patch.dependencies }]);
  }
  if (patch.dependencies) await requireKnownDependencies({ id: project.id, planningKey: prompt.planningKey }, patch.dependencies);
  await commitChange(project, async (tx) => {
    const n = await tx.prompt.updateMany({ where: { id: promptId, status: { in: ["pending", "failed", "cancelled"] } }, data: patch });
    if (n.count === 0) throw new PromptStateError(`#${prompt.number} is ${prompt.status}; only prompts that are not running or done can be edited`);
  }, () => ({
    audit: { by, action: "prompt.edited", target: { type: "prompt", id: promptId }, before: Object.fromEntries(Object.keys(patch).map((k) => [k, prompt[k as keyof typeof patch]])), after: patch },
    activity: ["promptsChange", `#${prompt.number} edited`, { promptId }],
    nudge: "prompt changed",
  }));
  return getDb().prompt.findUniqueOrThrow({ where: { id: promptId } });
}

/** Cancels a prompt; a live run of it is cancelled too (its supervisor stops the agent). */
export async function cancelPrompt(project: Project, promptId: string, by: AuditBy = SYSTEM) {
  const prompt = await requirePrompt(project, promptId);
  const now = new Date();
  const changed = await commitChange(project, async (tx) => {
    if (!(await changePromptStatus(promptId, { from: ["pending", "in_progress"], to: "cancelled" }, tx, now))) return false;
    const runs = await tx.run.updateMany({
      where: { promptId, status: { in: [...LIVE_RUN_STATUSES] } },
      data: { status: "cancelled", finishedAt: now, error: "cancelled by a person", leaseExpiresAt: null },
    });
    if (runs.count > 0) await tx.loopState.update({ where: { projectId: project.id }, data: { lastSpawnAt: null } });
    return true;
  }, (done) => done ? {
    audit: { by, action: "prompt.cancelled", target: { type: "prompt", id: promptId }, before: { status: prompt.status }, after: { status: "cancelled" } },
    activity: ["taskFailed", `#${prompt.number} ${prompt.title}: cancelled`, { promptId }],
    nudge: "prompt cancelled",
  } : null);
  if (!changed) throw new PromptStateError(`#${prompt.number} is ${prompt.status}; only pending or running prompts can be cancelled`);
}

/** Sends a failed or cancelled prompt back to the queue with fresh attempts. */
export async function retryPrompt(project: Project, promptId: string, by: AuditBy = SYSTEM) {
  const prompt = await requirePrompt(project, promptId);
  const requeued = await commitChange(project, (tx) => changePromptStatus(promptId, { from: ["failed", "cancelled"], to: "pending", data: { attempts: 0, retryAt: null } }, tx), (done) => done ? {
    audit: { by, action: "prompt.retried", target: { type: "prompt", id: promptId }, before: { status: prompt.status, attempts: prompt.attempts }, after: { status: "pending", attempts: 0 } },
    activity: ["promptsChange", `#${prompt.number} ${prompt.title}: back to the queue`, { promptId }],
    nudge: "prompt retried",
    addsWork: true,
  } : null);
  if (!requeued) throw new PromptStateError(`#${prompt.number} is ${prompt.status}; only failed or cancelled prompts can be retried`);
}
