import type { PromptPriority, PromptStatus } from "@/lib/prompts/schema";

// Seed 003's autopilot states; seed 000's Loop toggle is running ⇄ stopped.
export type LoopMode = "running" | "paused" | "stopping" | "stopped";

export interface PromptView {
  id: string;
  number: number;
  status: PromptStatus;
  priority: PromptPriority;
  /** Prompt numbers that must be done first. */
  dependencies: number[];
  /** False while the prompt waits for a human's approval. */
  approved: boolean;
  /** True while a run for this prompt is alive. */
  live: boolean;
  /** True while this prompt's work has succeeded and waits for its merge to land (it stays in_progress). */
  merging: boolean;
  /** After a failed attempt: the prompt does not start again before this time (exponential backoff). */
  retryAt: Date | null;
}

export interface PlannerState {
  unproductiveSpawns: number;
  /** Total prompt count when the planner was last spawned; null before the first spawn. */
  lastPromptCount: number | null;
  lastSpawnAt: Date | null;
}

export interface DecisionInput {
  mode: LoopMode;
  parallelEnabled: boolean;
  maxParallel: number;
  spawnCooldownMs: number;
  /** Last executor or planner spawn; the caller clears it when such a run ends. */
  lastSpawnAt: Date | null;
  plannerEnabled: boolean;
  plannerRunning: boolean;
  executorsRunning: number;
  /** Runs that succeeded with commits whose merge has not landed yet. */
  mergesPending: number;
  /** Open PRs (by number) holding a prompt's pushed work that is not on the base branch yet. */
  pullsAwaitingMerge: number[];
  prompts: PromptView[];
  planner: PlannerState;
}

export interface BlockedPrompt {
  promptNumber: number;
  awaitingApproval: boolean;
  /** Time left in the backoff after a failed attempt; 0 when none. */
  retryInMs: number;
  /** Dependencies that failed or were cancelled: only a human can unblock these. */
  failedDependencies: number[];
  /** Dependencies whose work succeeded and waits for its merge. */
  mergingDependencies: number[];
  /** Dependencies that exist but are not done yet. */
  unmetDependencies: number[];
  /** Dependency numbers that match no prompt. */
  missingDependencies: number[];
}

type Decided<Kind extends string, Fields = unknown> = { kind: Kind; message: string } & Fields;

export type Decision =
  | Decided<"idle", { mode: Exclude<LoopMode, "running"> }>
  | Decided<"blocked_planner">
  | Decided<"at_max", { executorsRunning: number; maxParallel: number }>
  | Decided<"cooling", { remainingMs: number }>
  | Decided<"awaiting_merge", { mergesPending: number; promptNumber: number | null }>
  | Decided<"spawn_executor", { promptId: string; promptNumber: number }>
  | Decided<"wait", { inProgress: number; blocked: BlockedPrompt[] }>
  | Decided<"planner_backoff", { remainingMs: number; cooldownMs: number; unproductiveSpawns: number }>
  | Decided<"spawn_planner", { planner: PlannerState }>
  | Decided<"all_done">;
