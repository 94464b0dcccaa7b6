import type { AgentEvent } from "@/lib/agents/types";
import type { Ceilings } from "@/lib/spend/ceilings";
import { LoopDetector, type LoopLimits } from "@/lib/spend/loop-detector";
import { RunMeter, type RunTotals } from "@/lib/spend/meter";

export type RunLimits = { ceilings: Ceilings; loops: LoopLimits };

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
    this.meter = new RunMeter(limits.ceilings, model);
    this.loops = new LoopDetector(limits.loops);
  }

  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** What the run used, or null when its agent reported nothing to count. */
  get totals(): RunTotals | null {
    return this.meter.measured ? this.meter.totals : null;
  }

  observe(event: AgentEvent): void {
    const reason = this.meter.observe(event) ?? this.loops.observe(event);
    if (!reason || this.stopReason) return;
    this.stopReason = reason;
    this.stop.abort(reason);
    this.onStop(reason);
  }
}
