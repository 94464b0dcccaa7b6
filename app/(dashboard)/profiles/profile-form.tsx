"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, ApiError } from "../_ui/api";
import { Field } from "../_ui/field";
import { ADAPTERS } from "@/lib/profiles/adapters";

interface Values {
  id?: string; name: string; adapter: string; commandTemplate: string; model: string; fallbackModel: string;
  completionSignal: string; envAllowList: string; extraArgs: string;
}

export function ProfileForm({ initial, readOnly }: { initial: Values; readOnly: boolean }) {
  const router = useRouter();
  const [v, setV] = useState(initial);
  const save = useMutation({
    mutationFn: () => api(initial.id ? `/api/agent-profiles/${initial.id}` : "/api/agent-profiles", {
      method: initial.id ? "PATCH" : "POST",
      body: {
        name: v.name, adapter: v.adapter, commandTemplate: v.commandTemplate, model: v.model, fallbackModel: v.fallbackModel,
        completionSignal: v.completionSignal, envAllowList: v.envAllowList.split(/[\s,]+/).filter(Boolean), extraArgs: v.extraArgs.split("\n").filter(Boolean),
      },
    }),
    onSuccess: () => { if (!initial.id) setV(initial); router.refresh(); },
  });
  const err = save.error instanceof ApiError ? save.error : null;
  const errorFor = (f: string) => (err?.field === f || err?.field?.startsWith(`${f}.`) ? err.message : undefined);
  const set = (k: keyof Values) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <form className="panel" aria-label={initial.id ? `Profile ${initial.name}` : "New profile"} onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
      <h2>{initial.id ? initial.name : "New profile"}</h2>
      <fieldset disabled={readOnly || save.isPending}>
        <Field label="Name" error={errorFor("name")}><input value={v.name} onChange={set("name")} /></Field>
        <Field label="Adapter" error={errorFor("adapter")}>
          <select value={v.adapter} onChange={set("adapter")}>{ADAPTERS.map((a) => <option key={a}>{a}</option>)}</select>
        </Field>
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
        {err && !err.field && <p className="error" role="alert">{err.message}</p>}
        {!readOnly && <button type="submit">{initial.id ? "Save profile" : "Create profile"}</button>}
        {save.isSuccess && <span role="status" className="ok"> Saved</span>}
      </fieldset>
    </form>
  );
}
