import type { PlannerState } from "@/lib/loop/types";

/** Seed 000's SPAWN_COOLDOWN_MS: the default spawn cooldown and the planner backoff's base. */
export const SPAWN_COOLDOWN_MS = 10_000;

const MAX_BACKOFF_EXPONENT = 4;

export function plannerCooldownMs(baseMs: number, unproductiveSpawns: number): number {
  return baseMs * 2 ** Math.min(unproductiveSpawns, MAX_BACKOFF_EXPONENT);
}

/**
 * Judges the previous planner spawn by whether the prompt count grew since it.
 * Pure in the current count, so re-evaluating it on every tick before the next spawn is harmless.
 */
export function unproductiveSpawnsNow(state: PlannerState, currentPromptCount: number): number {
  const unproductive = state.lastPromptCount !== null && currentPromptCount <= state.lastPromptCount;
  return unproductive ? state.unproductiveSpawns + 1 : 0;
}

export function plannerStateAtSpawn(state: PlannerState, currentPromptCount: number, now: Date): PlannerState {
  return {
    unproductiveSpawns: unproductiveSpawnsNow(state, currentPromptCount),
    lastPromptCount: currentPromptCount,
    lastSpawnAt: now,
  };
}

export function resetPlannerBackoffOnToggle(state: PlannerState): PlannerState {
  return { ...state, unproductiveSpawns: 0 };
}

// New pending prompts from anyone (a human, another agent) show there is work again.
export function plannerStateAfterSnapshot(
  state: PlannerState,
  previousPendingCount: number,
  currentPendingCount: number,
): PlannerState {
  return currentPendingCount > previousPendingCount ? { ...state, unproductiveSpawns: 0 } : state;
}

/** Time left in a window that opened at `since`; 0 once `windowMs` has fully elapsed. */
export function remainingMs(since: Date | null, windowMs: number, now: Date): number {
  if (since === null) return 0;
  return Math.max(0, windowMs - (now.getTime() - since.getTime()));
}
