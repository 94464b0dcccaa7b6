import { z } from "zod";
import { getDb } from "@/lib/db";
import { SYSTEM, type AuditBy } from "@/lib/audit/record";
import { parsePromptFile } from "@/lib/prompts/parse";
import { requireKnownDependencies } from "@/lib/prompts/dependencies";
import { commitChange } from "@/lib/activity/change";
import { isAgent, promptApproval, requesterOf } from "@/lib/approvals/request";

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
  const errors = parsed.flatMap((p, i) => (p.ok ? [] : [[i, p.error] as const]));
  if (errors.length) throw new z.ZodError(errors.map(([i, message]) => ({ code: "custom", path: ["files", i], message, input: null })));
  const prompts = parsed.map((p) => (p as Extract<typeof p, { ok: true }>).prompt);
  const numbers = prompts.map((p) => p.number);
  const taken = await getDb().prompt.findMany({ where: { projectId: project.id, planningKey: project.planningKey, number: { in: numbers } }, select: { number: true } });
  const dupes = numbers.filter((n, i) => numbers.indexOf(n) !== i);
  if (taken.length || dupes.length) {
    const list = [...new Set([...taken.map((t) => t.number), ...dupes])].map((n) => `#${n}`).join(", ");
    throw new z.ZodError([{ code: "custom", path: ["files"], message: `prompt numbers already used: ${list}`, input: null }]);
  }
  await requireKnownDependencies(project, prompts.flatMap((p) => p.dependencies), numbers, ["files"]);
  const settings = await getDb().projectSettings.findUniqueOrThrow({ where: { projectId: project.id } });
  const approval = promptApproval(settings.approvalPolicy, await isAgent(by));
  // The inbox entries commit with the prompts, so an imported prompt never waits unseen.
  await commitChange(project, async (tx) => {
    const created = await tx.prompt.createManyAndReturn({
      data: prompts.map((p) => ({
        projectId: project.id, planningKey: project.planningKey, number: p.number, title: p.title, body: p.body,
        status: p.status, priority: p.priority, dependencies: p.dependencies, origin: "file" as const, maxAttempts: settings.maxAttempts,
        approval: p.status === "pending" ? approval : "not_required" as const,
      })),
      select: { id: true, approval: true },
    });
    await tx.approval.createMany({
      data: created.filter((p) => p.approval === "pending").map((p) => ({ teamId: project.teamId, projectId: project.id, kind: "prompt_run" as const, promptId: p.id, requestedBy: requesterOf(by) })),
    });
  }, () => ({
    audit: { by, action: "prompts.imported", target: { type: "project", id: project.id }, after: { numbers, approval } },
    activity: ["promptsChange", `${prompts.length} prompt file(s) imported`],
    nudge: "prompts imported",
    addsWork: true,
  }));
  return prompts.length;
}
