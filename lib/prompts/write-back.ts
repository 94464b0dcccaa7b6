import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { isMap, parseDocument } from "yaml";
import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/log";
import { FRONTMATTER } from "@/lib/prompts/parse";
import type { PromptStatus } from "@/lib/prompts/schema";

type Project = { repoKind: string; repoPath: string | null };
type FilePrompt = { id: string; status: PromptStatus; filePath: string | null; fileStatus: PromptStatus | null };

/** The file's text with its frontmatter `status` set, everything else as written; null when it has no usable frontmatter. */
export function withFrontmatterStatus(text: string, status: PromptStatus): string | null {
  const match = FRONTMATTER.exec(text.replace(/^\uFEFF/, ""));
  if (!match) return null;
  const doc = parseDocument(match[1] ?? "");
  if (doc.errors.length > 0 || !isMap(doc.contents)) return null;
  if (doc.get("status") === status) return text;
  doc.set("status", status);
  const rest = text.replace(/^\uFEFF/, "").slice(match[0].length);
  return `---\n${doc.toString({ lineWidth: 0 })}---\n${rest}`;
}

/**
 * Seed 000's markPromptInProgress under withFileLock: the file's status follows the prompt's.
 * The lock (a lock directory beside the file, shared with any tool using proper-lockfile)
 * keeps two writers from interleaving; the rename makes a reader see the old or the new file.
 */
export async function writePromptFileStatus(path: string, status: PromptStatus): Promise<boolean> {
  const release = await lockfile.lock(path, { realpath: false, stale: 10_000, retries: { retries: 10, minTimeout: 20, maxTimeout: 500 } });
  try {
    const text = await readFile(path, "utf8");
    const next = withFrontmatterStatus(text, status);
    if (next === null || next === text) return false;
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, next);
    await rename(temporary, path);
    return true;
  } finally {
    await release();
  }
}

/**
 * Writes back the status of every file-backed prompt whose status moved since the file last
 * said it (`fileStatus`); a file that changed meanwhile is the sync's to read, not ours to overwrite.
 */
export async function writeBackPromptStatuses(project: Project, prompts: readonly FilePrompt[]): Promise<number> {
  if (project.repoKind !== "local" || !project.repoPath) return 0;
  let written = 0;
  for (const prompt of prompts) {
    if (!prompt.filePath || prompt.status === prompt.fileStatus) continue;
    try {
      await writePromptFileStatus(join(project.repoPath, prompt.filePath), prompt.status);
      await getDb().prompt.updateMany({ where: { id: prompt.id, status: prompt.status }, data: { fileStatus: prompt.status } });
      written++;
    } catch (err) {
      // A missing or locked file is retried at the next tick; it never stops the loop.
      getLogger("prompts").warn({ err: (err as Error).message, promptId: prompt.id }, "prompt file status not written");
    }
  }
  return written;
}
