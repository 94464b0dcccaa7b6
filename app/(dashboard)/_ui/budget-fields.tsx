import { Field } from "@/app/(dashboard)/_ui/field";

/** A project's budgets (owners change them); empty means none, 0 means runs are refused. */
export function BudgetFields({ values, set, error, readOnly }: {
  values: Record<string, unknown>;
  set: (key: string, value: unknown) => void;
  error: (field: string) => string | undefined;
  readOnly: boolean;
}) {
  return (
    <fieldset className="ceilings" disabled={readOnly}>
      <legend>Budget</legend>
      <p className="muted small">
        Spend of this project per UTC day and month, in USD, from the ledger. Empty: no budget. 0: runs are refused.
        Alerts at 80, 90 and 100 %; at 100 % the loop pauses and new runs are refused until the period ends or an owner raises or overrides it.
        {readOnly && " Only an owner changes budgets."}
      </p>
      <div className="grid-form">
        <Field label="Daily budget (USD)" error={error("dailyBudgetUsd")}>
          <input name="dailyBudgetUsd" inputMode="decimal" value={String(values.dailyBudgetUsd ?? "")} onChange={(e) => set("dailyBudgetUsd", e.target.value)} />
        </Field>
        <Field label="Monthly budget (USD)" error={error("monthlyBudgetUsd")}>
          <input name="monthlyBudgetUsd" inputMode="decimal" value={String(values.monthlyBudgetUsd ?? "")} onChange={(e) => set("monthlyBudgetUsd", e.target.value)} />
        </Field>
        <Field label="At 100 %, running runs" error={error("budgetStopsRuns")}
          hint="stop: each run may spend only what the budget had left when it started">
          <select name="budgetStopsRuns" value={values.budgetStopsRuns ? "stop" : "finish"} onChange={(e) => set("budgetStopsRuns", e.target.value === "stop")}>
            <option value="finish">finish (within their own ceilings)</option>
            <option value="stop">are stopped at the budget</option>
          </select>
        </Field>
      </div>
    </fieldset>
  );
}
