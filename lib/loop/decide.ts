import { plannerCooldownMs, plannerStateAtSpawn, remainingMs, unproductiveSpawnsNow } from "@/lib/loop/backoff";
import * as say from "@/lib/loop/messages";
import { blockedPrompts, nextInOrder } from "@/lib/loop/pick-next-prompt";
import type { Decision, DecisionInput } from "@/lib/loop/types";

/** Seed 000's prompt-loop state machine, one step: what this tick should do, checked in the diagram's order. */
export function decide(input: DecisionInput, now: Date): Decision {
  const { mode, executorsRunning } = input;
  if (mode !== "running") {
    const agentsRunning = executorsRunning + (input.plannerRunning ? 1 : 0);
    return { kind: "idle", mode, message: say.idleMessage(mode, agentsRunning) };
  }
  if (input.plannerRunning) return { kind: "blocked_planner", message: say.plannerRunningMessage };

  const maxParallel = input.parallelEnabled ? input.maxParallel : 1;
  if (executorsRunning >= maxParallel) {
    return { kind: "at_max", executorsRunning, maxParallel, message: say.atMaxMessage(executorsRunning, maxParallel) };
  }

  // Parallel off: the one slot stays held until the run's merge lands, so the next run starts from a base that has it.
  if (!input.parallelEnabled && input.mergesPending > 0) {
    return { kind: "awaiting_merge", mergesPending: input.mergesPending, promptNumber: null, message: say.serialMergeMessage(input.mergesPending) };
  }
  // The same with pull requests: the merge that lands the work is the PR's, on GitHub.
  if (!input.parallelEnabled && input.pullsAwaitingMerge.length > 0) {
    return { kind: "awaiting_merge", mergesPending: input.pullsAwaitingMerge.length, promptNumber: null, message: say.serialPullMessage(input.pullsAwaitingMerge) };
  }

  // The cooldown is per slot: it holds the slot the last spawn took, never another free one (parallel on).
  const cooldownLeft = input.parallelEnabled ? 0 : remainingMs(input.lastSpawnAt, input.spawnCooldownMs, now);
  if (cooldownLeft > 0) return { kind: "cooling", remainingMs: cooldownLeft, message: say.coolingMessage(cooldownLeft) };

  const next = nextInOrder(input.prompts, now);
  if (next && next.awaitingMerges.length > 0) {
    const { prompt, awaitingMerges } = next;
    return {
      kind: "awaiting_merge",
      mergesPending: input.mergesPending,
      promptNumber: prompt.number,
      message: say.orderMergeMessage(prompt.number, prompt.priority, awaitingMerges),
    };
  }
  if (next) {
    return {
      kind: "spawn_executor",
      promptId: next.prompt.id,
      promptNumber: next.prompt.number,
      message: say.spawnExecutorMessage(next.prompt.number, next.prompt.priority),
    };
  }

  // A live run on a prompt already marked done is still finishing: the planner must not see a half-settled queue.
  const inProgress = input.prompts.filter((p) => p.status === "in_progress" || p.live).length;
  const pending = input.prompts.some((p) => p.status === "pending");
  if (pending || inProgress > 0) {
    const blocked = blockedPrompts(input.prompts, now);
    return { kind: "wait", inProgress, blocked, message: say.waitMessage(inProgress, blocked) };
  }
  return decidePlanner(input, now);
}

function decidePlanner(input: DecisionInput, now: Date): Decision {
  if (!input.plannerEnabled) return { kind: "all_done", message: say.allDoneMessage };

  const total = input.prompts.length;
  const unproductiveSpawns = unproductiveSpawnsNow(input.planner, total);
  const cooldownMs = plannerCooldownMs(input.spawnCooldownMs, unproductiveSpawns);
  const left = remainingMs(input.planner.lastSpawnAt, cooldownMs, now);
  if (left > 0) {
    return {
      kind: "planner_backoff",
      remainingMs: left,
      cooldownMs,
      unproductiveSpawns,
      message: say.plannerBackoffMessage(cooldownMs, unproductiveSpawns),
    };
  }
  return {
    kind: "spawn_planner",
    planner: plannerStateAtSpawn(input.planner, total, now),
    message: say.spawnPlannerMessage(unproductiveSpawns),
  };
}
