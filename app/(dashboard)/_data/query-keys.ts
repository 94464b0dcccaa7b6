import type { InvalidateQueryFilters } from "@tanstack/react-query";
import type { LiveEvent } from "@/lib/events/wire";

/**
 * The dashboard's query keys. Invalidation matches by prefix, so ["project", id] alone
 * would refetch everything under a project; the live provider uses `exact` where it must.
 */
export const queryKeys = {
  projects: () => ["projects"] as const,
  project: (id: string) => ["project", id] as const,
  prompts: (projectId: string) => ["project", projectId, "prompts"] as const,
  runs: (projectId: string) => ["project", projectId, "runs"] as const,
  activity: (projectId: string, type?: string) => ["project", projectId, "activity", ...(type === undefined ? [] : [type])] as const,
  github: (projectId: string) => ["project", projectId, "github"] as const,
  githubDeliveries: (projectId: string) => ["project", projectId, "github", "deliveries"] as const,
  run: (id: string) => ["run", id] as const,
  prompt: (id: string) => ["prompt", id] as const,
  threads: () => ["threads"] as const,
  thread: (id: string) => ["thread", id] as const,
  usage: (from: string, to: string) => ["usage", from, to] as const,
  campaigns: (projectId: string) => ["project", projectId, "campaigns"] as const,
  campaign: (id: string) => ["campaign", id] as const,
};

const LOOP = new Set(["started", "stopped", "paused", "resumed", "loopStatus", "branchChange", "projectChange", "agentsChange", "allDone"]);
const PROMPTS = new Set(["promptsChange", "taskAssigned", "taskCompleted", "taskFailed", "allDone", "runChange", "branchChange", "error"]);
const RUNS = new Set(["runChange", "taskAssigned", "taskCompleted", "taskFailed", "agentsChange"]);

/** Which cached queries an event makes stale (events are hints: the pages re-read). */
export function invalidationsFor(event: LiveEvent): InvalidateQueryFilters[] {
  const out: InvalidateQueryFilters[] = [{ queryKey: queryKeys.projects(), exact: true }];
  const p = event.projectId;
  if (p) {
    if (LOOP.has(event.type) || RUNS.has(event.type)) out.push({ queryKey: queryKeys.project(p), exact: true });
    if (PROMPTS.has(event.type)) out.push({ queryKey: queryKeys.prompts(p) });
    if (RUNS.has(event.type)) out.push({ queryKey: queryKeys.runs(p) });
    // recordActivity writes a row for every event that carries a message.
    if (event.message !== undefined || event.type === "activity") out.push({ queryKey: queryKeys.activity(p) });
  }
  // A campaign's page shows its tasks' states: any prompt change may be one of them.
  if (event.type === "campaignChange" || PROMPTS.has(event.type)) out.push({ queryKey: ["campaign"] });
  if (event.type === "campaignChange" && p) out.push({ queryKey: queryKeys.campaigns(p) });
  if (event.runId) out.push({ queryKey: queryKeys.run(event.runId) });
  if (event.promptId) out.push({ queryKey: queryKeys.prompt(event.promptId) });
  // A new turn or a receipt: the thread and the list (last turn, unread count) re-read.
  if (event.threadId) out.push({ queryKey: queryKeys.thread(event.threadId) }, { queryKey: queryKeys.threads() });
  return out;
}
