import { readFile } from "node:fs/promises";
import { resolve, relative, sep } from "node:path";
import type { PlanTask } from "@/lib/campaigns/plan";

// Seed 002's context window management: the architect sees the goal, the repo map and the last
// failure or drift log, never file contents or chat history; a worker sees only its task and its
// files; the reflector sees the goal and what was completed. The first line names the role (the
// demo agent picks its scripted answer by it; a real agent reads it as the heading it is).

/** How many characters of a failure log reach the next architect (its tail: the error is last). */
export const FAILURE_TAIL_CHARS = 4_000;
export const tail = (log: string, chars = FAILURE_TAIL_CHARS) => (log.length > chars ? `…${log.slice(-chars)}` : log);

export function architectInput(c: { goal: string; failureLog: string | null }, repoMap: string): string {
  return [
    "Role: architect",
    "",
    "You are the architect of this repository. Turn the goal into a plan of small tasks that workers with",
    "no other context can do one at a time. Answer with the plan as JSON only (no prose), in this shape:",
    '{"tasks":[{"id":"t1","description":"…","files":["path"],"stepHints":["…"],"entryCriteria":["…"],',
    '"exitCriteria":["…"],"dependencies":["task id"],"domain":"ui|data|infra|test|devops"}]}',
    "",
    "## Goal",
    c.goal,
    "",
    ...(c.failureLog ? ["## What went wrong last time", "```", tail(c.failureLog), "```", ""] : []),
    "## Repository map (file tree and top-level signatures, no bodies)",
    "```",
    repoMap.trimEnd(),
    "```",
  ].join("\n");
}

/** The body of a task's prompt, fixed when the plan is applied (its files are read at run time). */
export function taskBody(task: PlanTask): string {
  // A hint of several lines (a snippet, a fenced block) is kept as written, not folded into a bullet.
  const section = (title: string, items: string[]) => (items.length ? [`## ${title}`, ...items.map((i) => (i.includes("\n") ? `\n${i}\n` : `- ${i}`)), ""] : []);
  return [
    task.description,
    "",
    ...section("Step hints", task.stepHints),
    ...section("Entry criteria", task.entryCriteria),
    ...section("Exit criteria", task.exitCriteria),
    ...section("Files", task.files.map((f) => `\`${f}\``)),
  ].join("\n").trimEnd();
}

const MAX_FILE_CHARS = 100_000;

/** A worker's whole input: its task and the current contents of the files it names. */
export async function workerInput(task: { taskId: string; title: string; body: string; files: string[] }, worktree: string): Promise<string> {
  const parts = ["Role: worker", "", `# Task ${task.taskId}: ${task.title}`, "", task.body, ""];
  for (const file of task.files) {
    const full = resolve(worktree, file);
    const inside = relative(worktree, full);
    if (inside.startsWith(`..${sep}`) || inside === ".." || inside.split(sep)[0] === ".git") continue;
    const content = await readFile(full, "utf8").catch(() => null);
    parts.push(`## ${file}`, content === null ? "(does not exist yet)" : ["````", content.slice(0, MAX_FILE_CHARS), "````"].join("\n"), "");
  }
  return parts.join("\n").trimEnd();
}

export function reflectorInput(c: { goal: string }, milestone: number, completed: Array<{ taskId: string; title: string }>): string {
  return [
    "Role: reflector",
    "",
    `Milestone: ${milestone} %`,
    "Does the completed work serve the original goal? Answer with JSON only:",
    '{"aligned": true|false, "reason": "…"}',
    "",
    "## Original goal",
    c.goal,
    "",
    "## Completed tasks",
    ...completed.map((t) => `- ${t.taskId}: ${t.title}`),
  ].join("\n");
}

export type Verdict = { aligned: boolean; reason: string };

/** The reflector's answer; anything unreadable counts as aligned with the reason saying so (no re-plan on noise). */
export function parseVerdict(answer: string | null): Verdict {
  const json = /\{[\s\S]*\}/.exec(answer ?? "")?.[0];
  try {
    const v = JSON.parse(json ?? "") as { aligned?: unknown; reason?: unknown };
    if (typeof v.aligned === "boolean") {
      const reason = typeof v.reason === "string" ? v.reason.trim().slice(0, 2_000) : "";
      // Drift is acted on and shown with its reason; a verdict of drift that gives none says so.
      return { aligned: v.aligned, reason: reason || (v.aligned ? "" : "the reflector gave no reason") };
    }
  } catch {
    // fall through
  }
  return { aligned: true, reason: "the reflector's answer could not be read" };
}
