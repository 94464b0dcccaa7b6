import { enforcementOf } from "@/lib/spend/capabilities";

/** Per-run ceilings; null means none, 0 means runs are refused. */
export type Ceilings = { maxTokens: number | null; maxCostUsd: number | null; maxToolCalls: number | null; maxTurns: number | null };

export type CeilingName = keyof Ceilings;

/** The project's setting where it has one, else the profile's default. */
export function runCeilings(profile: Ceilings, project: Ceilings): Ceilings {
  return {
    maxTokens: project.maxTokens ?? profile.maxTokens,
    maxCostUsd: project.maxCostUsd ?? profile.maxCostUsd,
    maxToolCalls: project.maxToolCalls ?? profile.maxToolCalls,
    maxTurns: project.maxTurns ?? profile.maxTurns,
  };
}

// A run admitted under a budget may spend what it reserved; when that is less than its own
// cost ceiling, the reservation is the ceiling its meter stops at.
export function budgetedCeilings(ceilings: Ceilings, reservedUsd: number | null): { ceilings: Ceilings; costLimit?: string } {
  if (reservedUsd === null || (ceilings.maxCostUsd !== null && ceilings.maxCostUsd <= reservedUsd)) return { ceilings };
  return { ceilings: { ...ceilings, maxCostUsd: reservedUsd }, costLimit: "the budget left for this run" };
}

/** The wall time when neither the project nor the profile sets one. */
export const DEFAULT_WALL_TIME_MS = 2_700_000;

/** A run's wall time: the project's setting where it has one, else the profile's, else 45 minutes. */
export function runWallTimeMs(profile: { maxRunDurationMs: number | null } | null, project: { maxRunDurationMs: number | null }): number {
  return project.maxRunDurationMs ?? profile?.maxRunDurationMs ?? DEFAULT_WALL_TIME_MS;
}

export const CEILING_WORDS: Record<CeilingName, string> = { maxTokens: "tokens", maxCostUsd: "cost", maxToolCalls: "tool calls", maxTurns: "turns" };

export function formatAmount(name: CeilingName, value: number, cents = 2): string {
  if (name === "maxCostUsd") return `$${value.toFixed(cents)}`;
  return Math.round(value).toLocaleString("en-US");
}

/** A ceiling an adapter cannot measure would never stop a run: it is refused rather than ignored. */
export function unenforceable(adapter: string, ceilings: Partial<Ceilings>): { field: CeilingName; message: string } | null {
  for (const field of Object.keys(CEILING_WORDS) as CeilingName[]) {
    if (ceilings[field] && enforcementOf(adapter, field) === "no") {
      return { field, message: `cannot be enforced: the ${adapter} adapter reports no ${CEILING_WORDS[field]} Ringmaster can read (leave it empty, or 0 to refuse runs)` };
    }
  }
  return null;
}

/** Why a run of this adapter with these ceilings may not start, or null. */
export function refusal(ceilings: Ceilings, adapter: string): string | null {
  const zero = (Object.keys(ceilings) as CeilingName[]).find((k) => ceilings[k] === 0);
  if (zero) return `refused: the run limit for ${CEILING_WORDS[zero]} is 0, which means runs are refused`;
  const blind = unenforceable(adapter, ceilings);
  return blind ? `refused: the run limit for ${CEILING_WORDS[blind.field]} ${blind.message}` : null;
}
