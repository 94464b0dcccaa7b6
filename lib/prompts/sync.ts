import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { getDb } from "@/lib/db";
import { recordActivity } from "@/lib/activity/record";
import { parsePromptFile } from "@/lib/prompts/parse";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { promptApproval } from "@/lib/approvals/request";

type Project = { id: string; teamId: string; repoKind: string; repoPath: string | null; planningKey: string };

export const promptsDir = (repoPath: string, planningKey: string) => join(repoPath, ".planning", planningKey, "prompts");

/**
 * Seed 000's prompt-files check: `.planning/<key>/prompts/NN-slug.md` files are imported
 * and kept in sync, so agents that write prompt files are picked up. A malformed file is
 * reported once in the activity log and skipped; it never stops the loop.
 */
export async function syncPromptFiles(project: Project): Promise<number> {
  if (project.repoKind !== "local" || !project.repoPath) return 0;
  const dir = promptsDir(project.repoPath, project.planningKey);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".md")).sort();
  if (names.length === 0) return 0;
  const db = getDb();
  const existing = new Map(
    (await db.prompt.findMany({ where: { projectId: project.id, planningKey: project.planningKey } })).map((p) => [p.number, p]),
  );
  const settings = await db.projectSettings.findUniqueOrThrow({ where: { projectId: project.id } });
  let changed = 0;
  for (const name of names) {
    const text = await readFile(join(dir, name), "utf8").catch((e: Error) => new Error(`${name}: unreadable (${e.message})`));
    const parsed = text instanceof Error ? { ok: false as const, error: text.message } : parsePromptFile(name, text);
    if (!parsed.ok) {
      const message = `Prompt file skipped: ${parsed.error}`;
      const seen = await db.activityEvent.findFirst({ where: { projectId: project.id, message }, select: { id: true } });
      if (!seen) await recordActivity(project, "promptsChange", message);
      continue;
    }
    const file = parsed.prompt;
    const filePath = join(".planning", project.planningKey, "prompts", name);
    const row = existing.get(file.number);
    if (!row) {
      // Anyone who can write to the repository (an agent, above all) writes these files.
      const approval = file.status === "pending" ? promptApproval(settings.approvalPolicy, true) : "not_required";
      await db.prompt.create({
        data: {
          projectId: project.id, planningKey: project.planningKey, number: file.number, title: file.title, body: file.body,
          status: file.status, fileStatus: file.status, priority: file.priority, dependencies: file.dependencies, origin: "file", filePath,
          approval, maxAttempts: settings.maxAttempts,
          ...(approval === "pending" ? { approvals: { create: { teamId: project.teamId, projectId: project.id, kind: "prompt_run", requestedBy: "system" } } } : {}),
        },
      });
      await recordActivity(project, "promptsChange", `#${file.number} ${file.title} imported from ${filePath}`);
      changed++;
      continue;
    }
    if (row.filePath !== filePath) continue;
    const edited = row.title !== file.title || row.body !== file.body || row.priority !== file.priority
      || row.dependencies.join() !== file.dependencies.join();
    // The database owns the lifecycle once a prompt runs; a file can still close a pending one.
    // Only a status someone wrote into the file counts, not one the loop wrote back (fileStatus).
    const fileChanged = file.status !== row.fileStatus;
    const closes = row.status === "pending" && fileChanged && (file.status === "done" || file.status === "cancelled");
    if (fileChanged && !closes) await db.prompt.updateMany({ where: { id: row.id }, data: { fileStatus: file.status } });
    if (row.status === "pending" && (edited || closes)) {
      const text = { title: file.title, body: file.body, priority: file.priority, dependencies: file.dependencies };
      if (closes) await changePromptStatus(row.id, { from: "pending", to: file.status, data: { ...text, fileStatus: file.status } }, db);
      else await db.prompt.updateMany({ where: { id: row.id, status: "pending" }, data: text });
      changed++;
    }
  }
  return changed;
}
