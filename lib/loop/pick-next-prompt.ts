import type { PromptStatus } from "@/lib/prompts/schema";
import type { BlockedPrompt, PromptView } from "@/lib/loop/types";

/** How far along a dependency is: a prompt whose work succeeded but is not merged yet is "merging". */
type Progress = PromptStatus | "merging";

export interface NextInOrder {
  prompt: PromptView;
  /** Dependencies whose work succeeded and waits for its merge; empty when the prompt can start now. */
  awaitingMerges: number[];
}

/**
 * Seed 003's order (P1 before P4; seed 000: lowest number first within a priority) over the
 * prompts that are ready now or become ready the moment a pending merge lands. Holding the
 * latter in the order keeps it true at every instant: a lower-ranked prompt must not slip in
 * between a run's end and its merge.
 */
export function nextInOrder(prompts: readonly PromptView[], now: Date): NextInOrder | null {
  const progressOf = progressByNumber(prompts);
  const candidates = prompts
    .filter((p) => p.status === "pending" && !p.live)
    .map((p) => ({ prompt: p, blocked: blockersOf(p, progressOf, now) }))
    .filter(({ blocked }) => blocked === null || startsOnceMerged(blocked))
    .sort((a, b) => a.prompt.priority - b.prompt.priority || a.prompt.number - b.prompt.number);
  const first = candidates[0];
  if (!first) return null;
  return { prompt: first.prompt, awaitingMerges: first.blocked?.mergingDependencies ?? [] };
}

/** The prompt to start now, or null when none can (or the first in order waits for a merge). */
export function pickNextPrompt(prompts: readonly PromptView[], now: Date): PromptView | null {
  const next = nextInOrder(prompts, now);
  return next && next.awaitingMerges.length === 0 ? next.prompt : null;
}

/** Pending prompts without a live run that cannot start yet, with what holds each back. */
export function blockedPrompts(prompts: readonly PromptView[], now: Date): BlockedPrompt[] {
  const progressOf = progressByNumber(prompts);
  return prompts
    .filter((p) => p.status === "pending" && !p.live)
    .map((p) => blockersOf(p, progressOf, now))
    .filter((blocked): blocked is BlockedPrompt => blocked !== null)
    .sort((a, b) => a.promptNumber - b.promptNumber);
}

function startsOnceMerged(blocked: BlockedPrompt): boolean {
  return !blocked.awaitingApproval && blocked.retryInMs === 0 && blocked.failedDependencies.length === 0
    && blocked.unmetDependencies.length === 0 && blocked.missingDependencies.length === 0;
}

function blockersOf(prompt: PromptView, progressOf: Map<number, Progress>, now: Date): BlockedPrompt | null {
  const blocked: BlockedPrompt = {
    promptNumber: prompt.number,
    awaitingApproval: !prompt.approved,
    retryInMs: prompt.retryAt ? Math.max(0, prompt.retryAt.getTime() - now.getTime()) : 0,
    failedDependencies: [],
    mergingDependencies: [],
    unmetDependencies: [],
    missingDependencies: [],
  };
  for (const dependency of prompt.dependencies) {
    const progress = progressOf.get(dependency);
    if (progress === undefined) blocked.missingDependencies.push(dependency);
    else if (progress === "failed" || progress === "cancelled") blocked.failedDependencies.push(dependency);
    else if (progress === "merging") blocked.mergingDependencies.push(dependency);
    else if (progress !== "done") blocked.unmetDependencies.push(dependency);
  }
  const isBlocked = blocked.awaitingApproval || blocked.retryInMs > 0 || blocked.failedDependencies.length > 0
    || blocked.mergingDependencies.length > 0 || blocked.unmetDependencies.length > 0 || blocked.missingDependencies.length > 0;
  return isBlocked ? blocked : null;
}

function progressByNumber(prompts: readonly PromptView[]): Map<number, Progress> {
  return new Map(prompts.map((p) => [p.number, p.merging && p.status === "in_progress" ? "merging" : p.status]));
}
