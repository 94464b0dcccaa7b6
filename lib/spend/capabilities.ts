import type { CeilingName } from "@/lib/spend/ceilings";

/** When Ringmaster can see what a ceiling measures in an adapter's output. */
export type Enforcement = "live" | "per turn" | "at the end" | "no";

// Claude's stream (and the demo's) carries usage on each assistant message; codex reports
// tokens per turn; gemini only in its final stats; aider and shell print plain text.
export const ENFORCEMENT: Record<string, Record<CeilingName, Enforcement>> = {
  claude: { maxTokens: "live", maxCostUsd: "live", maxToolCalls: "live" },
  demo: { maxTokens: "live", maxCostUsd: "live", maxToolCalls: "live" },
  codex: { maxTokens: "per turn", maxCostUsd: "per turn", maxToolCalls: "live" },
  gemini: { maxTokens: "at the end", maxCostUsd: "at the end", maxToolCalls: "live" },
  aider: { maxTokens: "no", maxCostUsd: "no", maxToolCalls: "no" },
  shell: { maxTokens: "no", maxCostUsd: "no", maxToolCalls: "no" },
};

export function enforcementOf(adapter: string, ceiling: CeilingName): Enforcement {
  return ENFORCEMENT[adapter]?.[ceiling] ?? "no";
}
