import { z } from "zod";
import { getDb } from "@/lib/db";
import { recordAudit, SYSTEM, type AuditBy } from "@/lib/audit/record";
import { enqueueTick } from "@/lib/queues";
import { recordActivity } from "@/lib/loop/activity";
import { parsePromptFile } from "@/lib/prompts/parse";

export const importInput = z.object({
  files: z.array(z.object({ name: z.string().min(1).max(200), text: z.string().max(200_000) })).min(1, "needs at least one file").max(500),
});

/**
 * Bulk import of prompt files (the format agents write under .planning/). All or nothing:
 * one malformed file, or a number already taken, rejects the batch with its reason.
 */
export async function importPromptFiles(project: { id: string; teamId: string; planningKey: string }, raw: unknown, by: AuditBy = SYSTEM) {
  const { files } = importInput.parse(raw);
  const parsed = files.map((f) => parsePromptFile(f.name, f.text));
  const errors = parsed.flatMap((p) => (p.ok ? [] : [p.error]));
  if (errors.length) throw new z.ZodError(errors.map((message, i) => ({ code: "custom", path: ["files", i], message, input: null })));
  const prompts = parsed.map((p) => (p as Extract<typeof p, { ok: true }>).prompt);
  const numbers = prompts.map((p) => p.number);
  const taken = await getDb().prompt.findMany({ where: { projectId: project.id, planningKey: project.planningKey, number: { in: numbers } }, select: { number: true } });
  const dupes = numbers.filter((n, i) => numbers.indexOf(n) !== i);
  if (taken.length || dupes.length) {
    const list = [...new Set([...taken.map((t) => t.number), ...dupes])].map((n) => `P${n}`).join(", ");
    throw new z.ZodError([{ code: "custom", path: ["files"], message: `prompt numbers already used: ${list}`, input: null }]);
  }
  await getDb().prompt.createMany({
    data: prompts.map((p) => ({
      projectId: project.id, planningKey: project.planningKey, number: p.number, title: p.title, body: p.body,
      status: p.status, priority: p.priority, dependencies: p.dependencies, origin: "file" as const,
    })),
  });
  await recordAudit({ teamId: project.teamId, by, action: "prompts.imported", target: { type: "project", id: project.id }, after: { numbers } });
  await recordActivity(project, "promptsChange", `${prompts.length} prompt file(s) imported`);
  await enqueueTick(project.id, "prompts imported");
  return prompts.length;
}
