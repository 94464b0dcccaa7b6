import type { CeilingName } from "@/lib/spend/ceilings";

/** When Ringmaster can see what a ceiling measures in an adapter's output. */
export type Enforcement = "live" | "per turn" | "at the end" | "no";

// Claude's stream (and the demo's, qwen's, pi's, opencode's, kilo's, cline's) carries usage on each model call; copilot none; droid only at the end; codex reports
// tokens per turn; gemini only in its final stats; aider and shell print plain text. A turn
// is one model call: Claude's stream (and the demo's) names each assistant message, the
// others report no turns Ringmaster can count.
export const ENFORCEMENT: Record<string, Record<CeilingName, Enforcement>> = {
  claude: { maxTokens: "live", maxCostUsd: "live", maxToolCalls: "live", maxTurns: "live" },
  demo: { maxTokens: "live", maxCostUsd: "live", maxToolCalls: "live", maxTurns: "live" },
  codex: { maxTokens: "per turn", maxCostUsd: "per turn", maxToolCalls: "live", maxTurns: "no" },
  gemini: { maxTokens: "at the end", maxCostUsd: "at the end", maxToolCalls: "live", maxTurns: "no" },
  qwen: { maxTokens: "live", maxCostUsd: "live", maxToolCalls: "live", maxTurns: "live" },
  pi: { maxTokens: "live", maxCostUsd: "live", maxToolCalls: "live", maxTurns: "live" },
  opencode: { maxTokens: "live", maxCostUsd: "live", maxToolCalls: "live", maxTurns: "live" },
  copilot: { maxTokens: "no", maxCostUsd: "no", maxToolCalls: "live", maxTurns: "no" },
  cline: { maxTokens: "live", maxCostUsd: "live", maxToolCalls: "live", maxTurns: "no" },
  kilo: { maxTokens: "live", maxCostUsd: "live", maxToolCalls: "live", maxTurns: "live" },
  droid: { maxTokens: "at the end", maxCostUsd: "at the end", maxToolCalls: "live", maxTurns: "no" },
  aider: { maxTokens: "no", maxCostUsd: "no", maxToolCalls: "no", maxTurns: "no" },
  shell: { maxTokens: "no", maxCostUsd: "no", maxToolCalls: "no", maxTurns: "no" },
};

export function enforcementOf(adapter: string, ceiling: CeilingName): Enforcement {
  return ENFORCEMENT[adapter]?.[ceiling] ?? "no";
}
