import type { AgentEvent } from "@/lib/agents/types";
import type { Ceilings } from "@/lib/spend/ceilings";
import { LoopDetector, type LoopLimits } from "@/lib/spend/loop-detector";
import { RunMeter, type RunTotals, type UsageLine } from "@/lib/spend/meter";
import type { PriceTable } from "@/lib/spend/prices";

/** `costLimit` names the cost ceiling when it is the budget's share rather than the run limit. */
export type RunLimits = { ceilings: Ceilings; loops: LoopLimits; costLimit?: string; prices?: PriceTable };

/**
 * Watches one run's events against its ceilings and the loop detector; the first reason
 * to stop aborts `signal`, which kills the agent's process group.
 */
export class RunGuard {
  private readonly meter: RunMeter;
  private readonly loops: LoopDetector;
  private readonly stop = new AbortController();
  stopReason: string | null = null;

  constructor(limits: RunLimits, model: string | undefined, private readonly onStop: (reason: string) => void) {
    this.meter = new RunMeter(limits.ceilings, model, limits.costLimit, limits.prices);
    this.loops = new LoopDetector(limits.loops);
  }

  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** What the run used, or null when its agent reported nothing to count. */
  get totals(): RunTotals | null {
    return this.meter.measured ? this.meter.totals : null;
  }

  /** Watches one event; returns the ledger lines it changed. */
  observe(event: AgentEvent): UsageLine[] {
    const reason = this.meter.observe(event) ?? this.loops.observe(event);
    if (reason && !this.stopReason) {
      this.stopReason = reason;
      this.stop.abort(reason);
      this.onStop(reason);
    }
    return this.meter.linesChangedBy(event);
  }
}
