// The triggers, in the order a poll looks for them: the first that exists is claimed and
// answered (their finders: FINDERS in lib/runners/claim.ts). `unread_mention` is a thread turn
// that names the agent (@name); `worker_finished` is a lead's "a worker finished a task".
export const TRIGGER_TYPES = ["task_offered", "task_assigned", "unread_mention", "worker_finished", "pool_task"] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** Which role looks for a trigger: leads never take from the pool, workers hear no worker_finished. */
export const TRIGGER_ROLES: Record<TriggerType, readonly ("lead" | "worker")[]> = {
  task_offered: ["lead", "worker"],
  task_assigned: ["lead", "worker"],
  unread_mention: ["lead", "worker"],
  worker_finished: ["lead"],
  pool_task: ["worker"],
};

/** What the seed's table tells the agent for each trigger. */
export function triggerInstruction(type: TriggerType, id: string): string {
  switch (type) {
    case "task_offered": return `Task ${id} offered, check if it fits your skills`;
    case "task_assigned":
    case "pool_task": return `Work on task ${id}`;
    case "unread_mention": return "You have unread mentions, check messages";
    case "worker_finished": return `Worker completed task ${id}, review results`;
  }
}
