import { Field } from "@/app/(dashboard)/_ui/field";
import { enforcementOf, type Enforcement } from "@/lib/spend/capabilities";
import type { CeilingName } from "@/lib/spend/ceilings";

const CEILINGS: Array<[CeilingName, string]> = [
  ["maxTokens", "Max tokens per run (input + output)"],
  ["maxCostUsd", "Max cost per run (USD)"],
  ["maxToolCalls", "Max tool calls per run"],
  ["maxTurns", "Max turns per run (model calls)"],
];

const SAID: Record<Enforcement, string> = {
  live: "enforced live, on the line that crosses it",
  "per turn": "enforced at the end of each turn (when the CLI reports it)",
  "at the end": "enforced only when the agent finishes (the CLI reports it then)",
  no: "not measurable with this adapter: only empty or 0 are allowed",
};

/**
 * The per-run ceiling inputs. `adapters` are those whose runs the values govern, so the hint
 * says how each can enforce them; empty means no ceiling, 0 means runs are refused.
 */
export function CeilingFields({ values, set, error, adapters, emptyMeans }: {
  values: { [K in CeilingName]?: unknown };
  set: (key: string, value: string) => void;
  error: (field: string) => string | undefined;
  adapters: string[];
  emptyMeans: string;
}) {
  return (
    <fieldset className="ceilings">
      <legend>Run ceilings</legend>
      <p className="muted small">Ringmaster stops a run the moment it passes one (and does not retry it). Empty: {emptyMeans}. 0: runs are refused.</p>
      <div className="grid-form">
        {CEILINGS.map(([k, label]) => (
          <Field key={k} label={label} error={error(k)}
            hint={adapters.map((a) => `${adapters.length > 1 ? `${a}: ` : ""}${SAID[enforcementOf(a, k)]}`).join("; ")}>
            <input name={k} inputMode="decimal" value={String(values[k] ?? "")} onChange={(e) => set(k, e.target.value)} />
          </Field>
        ))}
      </div>
    </fieldset>
  );
}
