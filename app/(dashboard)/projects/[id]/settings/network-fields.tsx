"use client";

import { Field } from "@/app/(dashboard)/_ui/field";

type Values = Record<string, unknown>;
export type Preset = { id: string; label: string; hosts: readonly string[] };

const MODES: Array<[string, string]> = [
  ["allow-list", "allow-list: only the hosts below (and the agent's own model API)"],
  ["none", "none: no network at all"],
  ["full", "full: any host except this server's own services"],
];

/** The agent sandbox's network settings: mode, presets, the admin's own rules, the unsandboxed opt-in. */
export function NetworkFields({ values, set, error, presets }: {
  values: Values; set: (k: string, v: unknown) => void; error: (field: string) => string | undefined; presets: Preset[];
}) {
  const chosen = new Set(values.egressPresets as string[]);
  const toggle = (id: string, on: boolean) => set("egressPresets", on ? [...chosen, id] : [...chosen].filter((p) => p !== id));
  return (
    <section aria-label="Agent network">
      <h3>Agent network</h3>
      <Field label="Network mode" error={error("networkMode")}>
        <select name="networkMode" value={String(values.networkMode)} onChange={(e) => set("networkMode", e.target.value)}>
          {MODES.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
        </select>
      </Field>
      <fieldset className="checks" disabled={values.networkMode !== "allow-list"}>
        <legend className="small muted">Presets</legend>
        {presets.map((p) => (
          <label key={p.id} className="check" title={p.hosts.join(", ")}>
            <input type="checkbox" name={`preset-${p.id}`} checked={chosen.has(p.id)} onChange={(e) => toggle(p.id, e.target.checked)} /> {p.label}
          </label>
        ))}
      </fieldset>
      <Field label="Allowed hosts, one per line" hint="*.example.com allows every subdomain; GET,HEAD host limits plain-HTTP requests to those methods" error={error("egressRules")}>
        <textarea name="egressRules" rows={4} disabled={values.networkMode !== "allow-list"} value={String(values.egressRules)} onChange={(e) => set("egressRules", e.target.value)} />
      </Field>
      <label className="check">
        <input type="checkbox" name="unsandboxed" checked={Boolean(values.unsandboxed)} onChange={(e) => set("unsandboxed", e.target.checked)} />
        {" "}Run agents unsandboxed where the sandbox cannot be made <span className="warn">(they then run with the server&apos;s own rights; only where the operator set SANDBOX_UNSANDBOXED_OPT_IN=on)</span>
      </label>
    </section>
  );
}
