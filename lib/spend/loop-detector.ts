import type { AgentEvent } from "@/lib/agents/types";

export type LoopLimits = { repeatLimit: number; failureLimit: number };

export const DEFAULT_LOOP_LIMITS: LoopLimits = { repeatLimit: 8, failureLimit: 5 };

/** Key order and runs of whitespace do not make two calls different. */
export function normaliseInput(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (typeof v === "string") return v.replace(/\s+/g, " ").trim();
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
    return v;
  };
  return JSON.stringify(sorted(value ?? null));
}

function describe(name: string, key: string): string {
  const input = key.length > 120 ? `${key.slice(0, 117)}...` : key;
  return `${name} ${input}`;
}

/** A tool call as the loop detector names it in its stop reason. */
export const describeCall = (name: string, input: unknown): string => describe(name, normaliseInput(input));

/** The call a loop stop names ("… (Bash {"command":"ls"})"), so the run page can mark its steps; null for any other reason. */
export function repeatedCallOf(error: string | null | undefined): string | null {
  const m = error?.match(/^stopped: the agent repeated .*? \((.*)\)$/s);
  return m ? m[1] : null;
}

/**
 * Stops an agent going round in circles: the same tool call `repeatLimit` times in a row,
 * or the same call failing with the same output `failureLimit` times in the run.
 */
export class LoopDetector {
  private last = "";
  private streak = 0;
  private readonly calls = new Map<string, { name: string; key: string }>();
  private readonly failures = new Map<string, number>();

  constructor(private readonly limits: LoopLimits = DEFAULT_LOOP_LIMITS) {}

  observe(event: AgentEvent): string | null {
    if (event.type === "tool_use") {
      const key = normaliseInput(event.input);
      const call = `${event.name}\0${key}`;
      this.streak = call === this.last ? this.streak + 1 : 1;
      this.last = call;
      this.calls.set(event.id, { name: event.name, key });
      if (this.streak >= this.limits.repeatLimit) {
        return `stopped: the agent repeated the same tool call ${this.streak} times in a row (${describe(event.name, key)})`;
      }
    } else if (event.type === "tool_result" && event.isError) {
      const call = this.calls.get(event.toolUseId);
      if (!call) return null;
      const failure = `${call.name}\0${call.key}\0${event.output.replace(/\s+/g, " ").trim()}`;
      const n = (this.failures.get(failure) ?? 0) + 1;
      this.failures.set(failure, n);
      if (n >= this.limits.failureLimit) {
        return `stopped: the agent repeated a failing call ${n} times with the same output (${describe(call.name, call.key)})`;
      }
    }
    return null;
  }
}
