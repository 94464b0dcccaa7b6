"use client";

import { useState } from "react";
import { Field } from "@/app/(dashboard)/_ui/field";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

export type TeamBudgetView = { dailyBudgetUsd: number | null; monthlyBudgetUsd: number | null };

const asText = (v: number | null) => (v === null ? "" : String(v));

/** The team's budgets over all its projects: owners change them; empty is none, 0 refuses every run. */
export function TeamBudgetPanel({ budget, canEdit }: { budget: TeamBudgetView; canEdit: boolean }) {
  const [values, setValues] = useState({ dailyBudgetUsd: asText(budget.dailyBudgetUsd), monthlyBudgetUsd: asText(budget.monthlyBudgetUsd) });
  const save = useApiMutation((v: typeof values) => api("/api/team/budget", { method: "PATCH", body: v }), { refresh: true });
  const { error, fieldError } = save;
  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [key]: e.target.value }));
  return (
    <form method="post" className="stack" aria-label="Team budget" onSubmit={(e) => { e.preventDefault(); save.mutate(values); }}>
      <fieldset className="grid-form" disabled={!canEdit}>
        <Field label="Daily budget (USD)" error={fieldError("dailyBudgetUsd")} hint="all projects together, per UTC day">
          <input name="dailyBudgetUsd" inputMode="decimal" value={values.dailyBudgetUsd} onChange={set("dailyBudgetUsd")} />
        </Field>
        <Field label="Monthly budget (USD)" error={fieldError("monthlyBudgetUsd")} hint="all projects together, per UTC month">
          <input name="monthlyBudgetUsd" inputMode="decimal" value={values.monthlyBudgetUsd} onChange={set("monthlyBudgetUsd")} />
        </Field>
      </fieldset>
      {error && !error.field && <p className="error" role="alert">{error.message}</p>}
      {canEdit ? (
        <div className="row">
          <button type="submit" disabled={save.pending}>Save team budget</button>
          {save.isSuccess && <span role="status" className="ok">Saved</span>}
        </div>
      ) : <p className="muted small">Only an owner changes the team&apos;s budgets.</p>}
    </form>
  );
}
