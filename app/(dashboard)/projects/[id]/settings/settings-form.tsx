"use client";

import Link from "next/link";
import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { CeilingFields } from "@/app/(dashboard)/_ui/ceiling-fields";
import { BudgetFields } from "@/app/(dashboard)/_ui/budget-fields";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import { NetworkFields, type Preset } from "./network-fields";

type Values = Record<string, unknown>;
type Profile = { id: string; name: string; adapter: string };

const numberFields: Array<[string, string, string]> = [
  ["tickIntervalMs", "Tick interval (ms)", "safety-net tick; changes wake the loop at once anyway"],
  ["maxParallel", "Parallel agents", "at most this many at once, when Parallel is on"],
  ["spawnCooldownMs", "Spawn cooldown (ms)", "per slot: it holds only the slot just used, so with Parallel on a free slot starts the next ready prompt at once; also the planner backoff base (default 10000)"],
  ["maxAttempts", "Retry limit (attempts)", "then the prompt fails and its log goes to the planner"],
  ["maxRunDurationMs", "Max run duration (ms)", "SIGTERM, then SIGKILL of the agent's process group; empty: the agent profile's, else 45 minutes"],
  ["prCheckFrequency", "PR review check every N ticks", "fallback when webhooks are not configured"],
  ["maxFixCycles", "Review-fix cycles per PR", "past the cap a human is asked"],
  ["loopRepeatLimit", "Loop detector: identical tool calls in a row", "the run is stopped at this many"],
  ["loopFailureLimit", "Loop detector: same failing call, same output", "the run is stopped at this many"],
];
const textFields: Array<[string, string]> = [
  ["reviewDetectionString", "Review detection string"],
  ["rerunComment", "Rerun comment"],
  ["verifyCommand", "Verify command (e.g. npm test)"],
];
const boolFields: Array<[string, string]> = [
  ["parallelEnabled", "Parallel executors"], ["plannerEnabled", "Planner when the queue is empty"], ["autoMerge", "Merge pull requests automatically"],
  ["approveMerges", "Approval before merging a PR"], ["approveFixPastCap", "Approval for fix cycles past the cap"],
  ["useRunners", "Run executors on remote runners (they pull work over HTTP)"],
];

export function SettingsForm({ projectId, initial, profiles, presets, readOnly, budgetsReadOnly }: {
  projectId: string; initial: Values; profiles: Profile[]; presets: Preset[]; readOnly: boolean; budgetsReadOnly: boolean;
}) {
  const [values, setValues] = useState<Values>({
    ...initial, modelRouting: JSON.stringify(initial.modelRouting ?? {}, null, 2), egressRules: ((initial.egressRules as string[]) ?? []).join("\n"),
  });
  const [routingError, setRoutingError] = useState<string>();
  // The page's sandbox notice is rendered on the server from the saved settings.
  const save = useApiMutation((body: Values) => api(`/api/projects/${projectId}/settings`, { method: "PATCH", body }),
    { refresh: true, invalidate: [queryKeys.project(projectId)] });
  const err = save.error;
  const errorFor = (f: string) => save.fieldError(f) ?? (f === "modelRouting" ? routingError : undefined);
  const set = (k: string, v: unknown) => setValues({ ...values, [k]: v });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    let modelRouting: unknown;
    try { modelRouting = JSON.parse(String(values.modelRouting || "{}")); setRoutingError(undefined); } catch {
      setRoutingError("Model routing must be a JSON object like {\"frontend\": \"model-name\"}");
      return;
    }
    const egressRules = String(values.egressRules).split("\n").map((l) => l.trim()).filter(Boolean);
    const body: Values = { ...values, modelRouting, egressRules };
    // Only the run duration may be empty (it falls back to the profile's); elsewhere empty is an error.
    for (const [k] of numberFields) body[k] = values[k] === "" || values[k] == null ? (k === "maxRunDurationMs" ? null : NaN) : Number(values[k]);
    save.mutate(body);
  };

  return (
    <form method="post" className="panel settings" onSubmit={submit} aria-label="Project settings">
      {readOnly && <p className="muted small" data-testid="why-disabled">Admins and owners change these settings; you can read them.</p>}
      <fieldset disabled={readOnly || save.pending}>
        <div className="grid-form">
          {numberFields.map(([k, label, hint]) => (
            <Field key={k} label={label} hint={hint} error={errorFor(k)}>
              <input name={k} inputMode="numeric" value={String(values[k] ?? "")} onChange={(e) => set(k, e.target.value)} />
            </Field>
          ))}
          {textFields.map(([k, label]) => (
            <Field key={k} label={label} error={errorFor(k)}>
              <input name={k} value={String(values[k] ?? "")} onChange={(e) => set(k, e.target.value)} />
            </Field>
          ))}
          <Field label="Merge method" error={errorFor("mergeMethod")}>
            <select name="mergeMethod" value={String(values.mergeMethod)} onChange={(e) => set("mergeMethod", e.target.value)}>
              {["squash", "merge", "rebase"].map((m) => <option key={m}>{m}</option>)}
            </select>
          </Field>
          <Field label="Approval before a prompt runs" error={errorFor("approvalPolicy")}>
            <select name="approvalPolicy" value={String(values.approvalPolicy)} onChange={(e) => set("approvalPolicy", e.target.value)}>
              <option value="none">none</option><option value="planner">planner-created prompts</option><option value="all">all prompts</option>
            </select>
          </Field>
          {(["executorProfileId", "plannerProfileId"] as const).map((k) => (
            <Field key={k} label={k === "executorProfileId" ? "Executor agent profile" : "Planner agent profile"} error={errorFor(k)}>
              <select name={k} value={String(values[k] ?? "")} onChange={(e) => set(k, e.target.value || null)}>
                <option value="">— none —</option>
                {profiles.map((p) => <option key={p.id} value={p.id}>{p.name} ({p.adapter})</option>)}
              </select>
            </Field>
          ))}
        </div>
        <CeilingFields values={values} set={set} error={errorFor} emptyMeans="the agent profile's ceiling"
          adapters={[...new Set(profiles.filter((p) => p.id === values.executorProfileId || p.id === values.plannerProfileId).map((p) => p.adapter))]} />
        <BudgetFields values={values} set={set} error={errorFor} readOnly={budgetsReadOnly} />
        <Field label="Model routing by domain (JSON)" hint='seed 002: {"frontend": "model-a", "backend": "model-b"}' error={errorFor("modelRouting")}>
          <textarea name="modelRouting" rows={4} value={String(values.modelRouting)} onChange={(e) => set("modelRouting", e.target.value)} />
        </Field>
        <NetworkFields values={values} set={set} error={errorFor} presets={presets} />
        <div className="checks">
          {boolFields.map(([k, label]) => (
            <label key={k} className="check"><input type="checkbox" name={k} checked={Boolean(values[k])} onChange={(e) => set(k, e.target.checked)} /> {label}</label>
          ))}
        </div>
        {err && !err.field && <p className="error" role="alert">{err.message}</p>}
        <div className="row">
          <button type="submit">Save settings</button>
          <Link href={`/projects/${projectId}`} className="button secondary">Back to project</Link>
          {save.isSuccess && <span role="status" className="ok">Saved</span>}
        </div>
      </fieldset>
    </form>
  );
}
