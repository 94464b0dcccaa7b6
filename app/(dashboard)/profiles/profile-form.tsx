"use client";

import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { CeilingFields } from "@/app/(dashboard)/_ui/ceiling-fields";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { ADAPTERS } from "@/lib/profiles/adapters";
import { providerVariablesHint } from "@/lib/agents/provider-variables";
import { ConfirmButton } from "@/app/(dashboard)/_ui/confirm-button";
import { PermissionModeField } from "./permission-mode-field";

interface Values {
  id?: string; name: string; adapter: string; commandTemplate: string; model: string; fallbackModel: string;
  completionSignal: string; envAllowList: string; extraArgs: string; permissionMode: string;
  maxTokens: string; maxCostUsd: string; maxToolCalls: string; maxTurns: string; maxRunDurationMs: string;
}

export function ProfileForm({ initial, readOnly }: { initial: Values; readOnly: boolean }) {
  const [v, setV] = useState(initial);
  const save = useApiMutation((d: Values) => api<{ warnings?: Record<string, string> }>(initial.id ? `/api/agent-profiles/${initial.id}` : "/api/agent-profiles", {
    method: initial.id ? "PATCH" : "POST",
    body: {
      name: d.name, adapter: d.adapter, commandTemplate: d.commandTemplate, model: d.model, fallbackModel: d.fallbackModel,
      completionSignal: d.completionSignal, envAllowList: d.envAllowList.split(/[\s,]+/).filter(Boolean), extraArgs: d.extraArgs.split("\n").filter(Boolean),
      permissionMode: d.permissionMode,
      maxTokens: d.maxTokens, maxCostUsd: d.maxCostUsd, maxToolCalls: d.maxToolCalls, maxTurns: d.maxTurns, maxRunDurationMs: d.maxRunDurationMs,
    },
  }), { refresh: true, onSuccess: () => { if (!initial.id) setV(initial); } });
  const remove = useApiMutation(() => api(`/api/agent-profiles/${initial.id}`, { method: "DELETE" }), { refresh: true });
  const { error: err, fieldError: errorFor } = save;
  const set = (k: keyof Values) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <form method="post" className="panel" aria-label={initial.id ? `Profile ${initial.name}` : "New profile"} onSubmit={(e) => { e.preventDefault(); save.mutate(v); }}>
      <h2>{initial.id ? initial.name : "New profile"}</h2>
      <fieldset disabled={readOnly || save.pending}>
        <Field label="Name" error={errorFor("name")}><input value={v.name} onChange={set("name")} /></Field>
        <Field label="Adapter" error={errorFor("adapter")} hint={providerVariablesHint(v.adapter) ?? undefined}>
          {/* Modes belong to one CLI: another adapter starts from its own default. */}
          <select value={v.adapter} onChange={(e) => setV({ ...v, adapter: e.target.value, permissionMode: "" })}>{ADAPTERS.map((a) => <option key={a}>{a}</option>)}</select>
        </Field>
        <PermissionModeField adapter={v.adapter} value={v.permissionMode} onChange={(permissionMode) => setV({ ...v, permissionMode })} error={errorFor("permissionMode")} />
        <Field label="Command template" error={errorFor("commandTemplate")} hint="shell adapter: {prompt} and {model} are quoted for you; without {prompt} the prompt goes to stdin">
          <input value={v.commandTemplate} onChange={set("commandTemplate")} placeholder="my-agent --task {prompt}" />
        </Field>
        <div className="row">
          <Field label="Model" error={errorFor("model")}><input value={v.model} onChange={set("model")} /></Field>
          <Field label="Fallback model (retries)" error={errorFor("fallbackModel")}><input value={v.fallbackModel} onChange={set("fallbackModel")} /></Field>
        </div>
        <Field label="Completion signal" error={errorFor("completionSignal")} hint="text the agent must print for success (optional)">
          <input value={v.completionSignal} onChange={set("completionSignal")} />
        </Field>
        <Field label="Environment allow-list" error={errorFor("envAllowList")} hint="variables passed through, e.g. ANTHROPIC_API_KEY">
          <input value={v.envAllowList} onChange={set("envAllowList")} />
        </Field>
        <Field label="Extra arguments (one per line)" error={errorFor("extraArgs")}><textarea rows={2} value={v.extraArgs} onChange={set("extraArgs")} /></Field>
        <Field label="Max run duration (ms)" error={errorFor("maxRunDurationMs")} hint="wall time per run, 60000 to 604800000 (7 days); empty: 45 minutes unless the project sets one">
          <input name="maxRunDurationMs" inputMode="numeric" value={v.maxRunDurationMs} onChange={set("maxRunDurationMs")} />
        </Field>
        <CeilingFields values={v} set={(k, value) => setV({ ...v, [k]: value })} error={errorFor} adapters={[v.adapter]} emptyMeans="no ceiling unless the project sets one" />
        {err && !err.field && <p className="error" role="alert">{err.message}</p>}
        <div className="row">
          {!readOnly && <button type="submit">{initial.id ? "Save profile" : "Create profile"}</button>}
          {!readOnly && initial.id && (
            <ConfirmButton label="Delete" className="secondary danger" question={`Delete ${initial.name}? Only a profile no project uses can go.`} yes="Yes, delete"
              disabled={remove.pending} onConfirm={() => remove.mutate(undefined)} />
          )}
          {save.isSuccess && <span role="status" className="ok"> Saved</span>}
        </div>
        {save.isSuccess && save.data?.warnings?.adapter && <p className="notice" role="status" data-testid="profile-warning">Adapter {save.data.warnings.adapter}</p>}
        {remove.error && <p className="error" role="alert">{remove.error.message}</p>}
      </fieldset>
      {readOnly && <p className="muted small" data-testid="why-disabled">Admins and owners change agent profiles; you can read them.</p>}
    </form>
  );
}
