import type { BlockedPrompt, LoopMode } from "@/lib/loop/types";

// One place for the activity-log wording, so the UI and tests agree on it.

export function idleMessage(mode: Exclude<LoopMode, "running">, agentsRunning: number): string {
  if (mode === "paused") return "Loop paused: running agents continue, nothing new starts";
  if (mode === "stopped") return "Loop stopped";
  if (agentsRunning === 0) return "Loop stopping: no agents running";
  return `Loop stopping: waiting for ${count(agentsRunning, "running agent")}`;
}

export const plannerRunningMessage = "Planner running: no spawns until it finishes";

export function atMaxMessage(executorsRunning: number, maxParallel: number): string {
  return `At max parallel (${executorsRunning}/${maxParallel} executors)`;
}

export function coolingMessage(remainingMs: number): string {
  return `Spawn cooldown: ${seconds(remainingMs)}s left`;
}

export function spawnExecutorMessage(promptNumber: number, priority: number): string {
  return `Spawning executor for ${promptRef(promptNumber)} (P${priority})`;
}

export function serialMergeMessage(mergesPending: number): string {
  return `Waiting for ${count(mergesPending, "merge")} to land: Parallel is off, so the next run starts from a base that has it`;
}

export function serialPullMessage(pulls: number[]): string {
  return `Waiting for ${pulls.map((n) => `PR #${n}`).join(", ")} to merge: Parallel is off, so the next run starts from a base that has it (turn Parallel on to work ahead)`;
}

export function orderMergeMessage(promptNumber: number, priority: number, merging: number[]): string {
  return `Waiting for ${merging.map(promptRef).join(", ")} to merge: ${promptRef(promptNumber)} (P${priority}) depends on it and goes next`;
}

export function waitMessage(inProgress: number, blocked: BlockedPrompt[]): string {
  const running = `${count(inProgress, "prompt")} in progress`;
  if (blocked.length === 0) return `Waiting for ${running}`;
  const reasons = blocked.map((b) => `${promptRef(b.promptNumber)} (${blockReasons(b).join("; ")})`).join(", ");
  const suffix = inProgress > 0 ? `; ${running}` : "";
  return `Waiting: ${count(blocked.length, "pending prompt")} blocked: ${reasons}${suffix}`;
}

// Seed 000 quotes this line verbatim; the figure is the whole backoff window, not the time left.
export function plannerBackoffMessage(cooldownMs: number, unproductiveSpawns: number): string {
  return `Emergent planner backoff: waiting ${seconds(cooldownMs)}s (${count(unproductiveSpawns, "unproductive spawn")})`;
}

export function spawnPlannerMessage(unproductiveSpawns: number): string {
  const history = unproductiveSpawns > 0 ? ` (after ${count(unproductiveSpawns, "unproductive spawn")})` : "";
  return `Spawning emergent planner: no pending or in-progress prompts${history}`;
}

export const allDoneStopMessage = "Loop stopped: all done, no tasks remain (a new prompt or Start runs it again)";

export const allDoneMessage = "All done: no pending or in-progress prompts and no planner configured";

function blockReasons(blocked: BlockedPrompt): string[] {
  const reasons: string[] = [];
  if (blocked.awaitingApproval) reasons.push("awaiting approval");
  if (blocked.retryInMs > 0) reasons.push(`retry in ${seconds(blocked.retryInMs)}s after a failed attempt`);
  if (blocked.failedDependencies.length > 0) reasons.push(dependencies("failed", blocked.failedDependencies));
  if (blocked.mergingDependencies.length > 0) reasons.push(dependencies("merging", blocked.mergingDependencies));
  if (blocked.unmetDependencies.length > 0) reasons.push(dependencies("unmet", blocked.unmetDependencies));
  if (blocked.missingDependencies.length > 0) reasons.push(dependencies("missing", blocked.missingDependencies));
  return reasons;
}

function dependencies(kind: string, numbers: number[]): string {
  const noun = numbers.length === 1 ? "dependency" : "dependencies";
  return `${kind} ${noun} ${numbers.map(promptRef).join(", ")}`;
}

// Prompt numbers read "#12" everywhere; "P1"–"P4" is only ever a priority.
export function promptRef(promptNumber: number): string {
  return `#${promptNumber}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

// Rounded up so a wait never reads "0s left" while it still blocks.
function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
