import type { AgentEvent } from "@/lib/agents/types";
import { CEILING_WORDS, formatAmount, type CeilingName, type Ceilings } from "@/lib/spend/ceilings";
import { costOf, type PriceTable } from "@/lib/spend/prices";

/** `inputTokens` includes the cached input: `cacheReadTokens` read from the prompt cache, `cacheWriteTokens` written to it. */
export type RunTotals = { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; outputTokens: number; costUsd: number; toolCalls: number };

type Call = { model?: string; input: number; output: number; cacheRead: number; cacheWrite: number };

/** One line of a run's spend for the ledger: a model call by its message id, or "result" for what the CLI's own total adds. */
export type UsageLine = { key: string; model: string | null; inputTokens: number; cachedTokens: number; cacheWriteTokens: number; outputTokens: number; costUsd: number };

export const RESULT_LINE = "result";

/**
 * Adds up a run's usage from its agent's events as they come and says when a ceiling is
 * passed. The CLI's own totals (its result) count too, whichever is higher: a CLI that
 * under-reports live cannot spend past a ceiling it reports at the end.
 */
export class RunMeter {
  private readonly calls = new Map<string, Call>();
  private readonly toolIds = new Set<string>();
  private toolCalls = 0;
  private reported = { inputTokens: 0, cacheReadTokens: 0, outputTokens: 0, costUsd: 0 };
  private reportedTurns = 0;
  private hasReport = false;
  /** Whether the agent reported any usage at all (plain-text CLIs never do). */
  measured = false;

  /**
   * `costLimit` names a cost ceiling that is not the run limit (the budget left for this run);
   * `prices` are the team's own, which win over the shipped list prices.
   */
  constructor(private readonly ceilings: Ceilings, private readonly model?: string, private readonly costLimit = "the run limit", private readonly prices: PriceTable = {}) {}

  /** The reason to stop the run when this event passed a ceiling, else null. */
  observe(event: AgentEvent): string | null {
    if (event.type === "usage") {
      this.measured = true;
      this.calls.set(event.messageId, { model: event.model, input: event.inputTokens, output: event.outputTokens, cacheRead: event.cacheReadTokens, cacheWrite: event.cacheWriteTokens });
    } else if (event.type === "tool_use") {
      // A block repeated with its id is one call; ids a CLI leaves empty each count.
      if (!event.id || !this.toolIds.has(event.id)) this.toolCalls++;
      if (event.id) this.toolIds.add(event.id);
    } else if (event.type === "result") {
      const inputTokens = event.inputTokens ?? 0;
      const outputTokens = event.outputTokens ?? 0;
      // The cached part at the cache-read price; a CLI that does not say is priced uncached, the dearest reading.
      const cacheReadTokens = Math.min(event.cacheReadTokens ?? 0, inputTokens);
      const costUsd = event.costUsd ?? costOf(this.model, { inputTokens: inputTokens - cacheReadTokens, outputTokens, cacheReadTokens }, this.prices);
      this.reported = { inputTokens, cacheReadTokens, outputTokens, costUsd };
      this.reportedTurns = event.turns ?? 0;
      this.hasReport = true;
      this.measured ||= event.inputTokens !== undefined || event.outputTokens !== undefined || event.costUsd !== undefined;
    } else {
      return null;
    }
    return this.passed();
  }

  get totals(): RunTotals {
    const sum = this.callSum();
    return {
      inputTokens: Math.max(sum.input, this.reported.inputTokens),
      cacheReadTokens: Math.max(sum.cacheRead, this.reported.cacheReadTokens),
      cacheWriteTokens: sum.cacheWrite,
      outputTokens: Math.max(sum.output, this.reported.outputTokens),
      costUsd: Math.max(sum.cost, this.reported.costUsd),
      toolCalls: this.toolCalls,
    };
  }

  /**
   * The ledger lines this event changed. Together a run's lines add up to its totals: the
   * result line holds only what the CLI's own total adds to the calls already counted.
   */
  linesChangedBy(event: AgentEvent): UsageLine[] {
    const changed: UsageLine[] = [];
    if (event.type === "usage") {
      const c = this.calls.get(event.messageId)!;
      changed.push({ key: event.messageId, model: c.model ?? this.model ?? null, inputTokens: c.input + c.cacheWrite, cachedTokens: c.cacheRead, cacheWriteTokens: c.cacheWrite, outputTokens: c.output, costUsd: this.costOfCall(c) });
    }
    if ((event.type === "usage" || event.type === "result") && this.hasReport) {
      const sum = this.callSum();
      const r = this.reported;
      changed.push({
        key: RESULT_LINE, model: this.model ?? null, cachedTokens: Math.max(0, r.cacheReadTokens - sum.cacheRead), cacheWriteTokens: 0,
        inputTokens: Math.max(0, r.inputTokens - r.cacheReadTokens - (sum.input - sum.cacheRead)),
        outputTokens: Math.max(0, r.outputTokens - sum.output), costUsd: Math.max(0, r.costUsd - sum.cost),
      });
    }
    return changed;
  }

  private costOfCall(c: Call): number {
    return costOf(c.model ?? this.model, { inputTokens: c.input, outputTokens: c.output, cacheReadTokens: c.cacheRead, cacheWriteTokens: c.cacheWrite }, this.prices);
  }

  private callSum() {
    let input = 0;
    let cacheRead = 0;
    let cacheWrite = 0;
    let output = 0;
    let cost = 0;
    for (const c of this.calls.values()) {
      input += c.input + c.cacheRead + c.cacheWrite;
      cacheRead += c.cacheRead;
      cacheWrite += c.cacheWrite;
      output += c.output;
      cost += this.costOfCall(c);
    }
    return { input, cacheRead, cacheWrite, output, cost };
  }

  /** Model turns so far: each model call is one, unless the CLI's own count says more. */
  get turns(): number {
    return Math.max(this.calls.size, this.reportedTurns);
  }

  private passed(): string | null {
    const t = this.totals;
    const used: Record<CeilingName, number> = { maxTokens: t.inputTokens + t.outputTokens, maxCostUsd: t.costUsd, maxToolCalls: t.toolCalls, maxTurns: this.turns };
    for (const name of Object.keys(used) as CeilingName[]) {
      const limit = this.ceilings[name];
      if (limit !== null && name === "maxTurns" && used[name] > limit) return `stopped: ${used[name]} turns passed the run limit of ${limit}`;
      if (limit !== null && used[name] > limit) {
        // "$0.01 passed the limit of $0.01" would read as a mistake: show more digits then.
        const digits = formatAmount(name, used[name]) === formatAmount(name, limit) ? 4 : 2;
        const which = name === "maxCostUsd" ? this.costLimit : "the run limit";
        return `stopped: ${CEILING_WORDS[name]} ${formatAmount(name, used[name], digits)} passed ${which} of ${formatAmount(name, limit, digits)}`;
      }
    }
    return null;
  }
}
