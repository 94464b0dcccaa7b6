"use client";

import { Field } from "@/app/(dashboard)/_ui/field";
import { permissionModesOf } from "@/lib/agents/permission-modes";

/** The CLI's permission mode, with a line on what the chosen one (or the default) lets the agent do. */
export function PermissionModeField({ adapter, value, onChange, error }: { adapter: string; value: string; onChange: (value: string) => void; error?: string }) {
  const modes = permissionModesOf(adapter);
  if (!modes) return null;
  const chosen = modes.modes.find((m) => m.value === (value || modes.default));
  return (
    <Field label="Permission mode" error={error} hint={chosen ? `${chosen.value} allows ${chosen.allows}` : undefined}>
      <select name="permissionMode" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">default ({modes.default})</option>
        {modes.modes.map((m) => <option key={m.value} value={m.value}>{m.value}</option>)}
      </select>
    </Field>
  );
}
