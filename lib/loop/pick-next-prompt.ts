import type { PromptStatus } from "@/lib/prompts/schema";
import type { BlockedPrompt, PromptView } from "@/lib/loop/types";

// Seed 003: P1 before P4; seed 000: lowest number first within a priority.
export function pickNextPrompt(prompts: readonly PromptView[]): PromptView | null {
  const statusOf = statusByNumber(prompts);
  const eligible = prompts.filter((p) => p.status === "pending" && !p.live && blockersOf(p, statusOf) === null);
  eligible.sort((a, b) => a.priority - b.priority || a.number - b.number);
  return eligible[0] ?? null;
}

/** Pending prompts without a live run that cannot start yet, with what holds each back. */
export function blockedPrompts(prompts: readonly PromptView[]): BlockedPrompt[] {
  const statusOf = statusByNumber(prompts);
  return prompts
    .filter((p) => p.status === "pending" && !p.live)
    .map((p) => blockersOf(p, statusOf))
    .filter((blocked): blocked is BlockedPrompt => blocked !== null)
    .sort((a, b) => a.promptNumber - b.promptNumber);
}

function blockersOf(prompt: PromptView, statusOf: Map<number, PromptStatus>): BlockedPrompt | null {
  const blocked: BlockedPrompt = {
    promptNumber: prompt.number,
    awaitingApproval: !prompt.approved,
    failedDependencies: [],
    unmetDependencies: [],
    missingDependencies: [],
  };
  for (const dependency of prompt.dependencies) {
    const status = statusOf.get(dependency);
    if (status === undefined) blocked.missingDependencies.push(dependency);
    else if (status === "failed" || status === "cancelled") blocked.failedDependencies.push(dependency);
    else if (status !== "done") blocked.unmetDependencies.push(dependency);
  }
  const isBlocked =
    blocked.awaitingApproval ||
    blocked.failedDependencies.length > 0 ||
    blocked.unmetDependencies.length > 0 ||
    blocked.missingDependencies.length > 0;
  return isBlocked ? blocked : null;
}

function statusByNumber(prompts: readonly PromptView[]): Map<number, PromptStatus> {
  return new Map(prompts.map((p) => [p.number, p.status]));
}
