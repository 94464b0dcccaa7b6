import { getDb } from "@/lib/db";

/** The prompts of the project's current planning key, by number. */
export function listPrompts(project: { id: string; planningKey: string }) {
  return getDb().prompt.findMany({
    where: { projectId: project.id, planningKey: project.planningKey }, orderBy: { number: "asc" },
    include: { pinnedAgent: { select: { name: true } } },
  });
}

/** One prompt with its runs, pull requests and conversation; the caller has checked access. */
export function getPromptDetail(promptId: string) {
  return getDb().prompt.findUniqueOrThrow({
    where: { id: promptId },
    include: {
      project: { select: { id: true, name: true } },
      pinnedAgent: { select: { name: true } },
      runs: { orderBy: { queuedAt: "desc" }, select: { id: true, status: true, attempt: true, kind: true, queuedAt: true, finishedAt: true, mergeStatus: true, exitCode: true, error: true } },
      pullRequests: { select: { id: true, number: true, url: true, state: true } },
    },
  });
}
