"use client";

import Link from "next/link";
import { useState } from "react";
import type { UsageRow } from "@/lib/budgets/usage";
import { useUsage } from "@/app/(dashboard)/_data/use-usage";
import { SpendChart } from "./spend-chart";

const n = (v: number) => Math.round(v).toLocaleString("en-US");
const usd = (v: number) => `$${v.toFixed(2)}`;
const daysBefore = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

type Split = { label: string; inputTokens: number; cachedTokens: number; outputTokens: number; costUsd: number };

function splitBy(rows: UsageRow[], key: (r: UsageRow) => string): Split[] {
  const groups = new Map<string, Split>();
  for (const r of rows) {
    const label = key(r);
    const g = groups.get(label) ?? { label, inputTokens: 0, cachedTokens: 0, outputTokens: 0, costUsd: 0 };
    g.inputTokens += r.inputTokens; g.cachedTokens += r.cachedTokens; g.outputTokens += r.outputTokens; g.costUsd += r.costUsd;
    groups.set(label, g);
  }
  return [...groups.values()].sort((a, b) => b.costUsd - a.costUsd);
}

function SplitTable({ title, column, rows, testId }: { title: string; column: string; rows: Split[]; testId: string }) {
  return (
    <section className="panel table-wrap">
      <h2>{title}</h2>
      <table className="table" data-testid={testId}>
        <thead><tr><th scope="col">{column}</th><th scope="col">Tokens in</th><th scope="col">Cached</th><th scope="col">Out</th><th scope="col">Cost</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}><td>{r.label}</td><td>{n(r.inputTokens)}</td><td>{n(r.cachedTokens)}</td><td>{n(r.outputTokens)}</td><td>{usd(r.costUsd)}</td></tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The team's spend from the ledger: a chart per day by project, the splits, the dearest runs and a CSV. */
export function UsageView({ today }: { today: string }) {
  const [period, setPeriod] = useState({ from: daysBefore(today, 29), to: today });
  const [draft, setDraft] = useState(period);
  const { data, error } = useUsage(period.from, period.to);
  const presets: Array<[string, number]> = [["Today", 0], ["7 days", 6], ["30 days", 29], ["90 days", 89]];
  const rows = data?.rows ?? [];
  const total = splitBy(rows, () => "all")[0];
  return (
    <div className="stack">
      <div className="row spread">
        <h1>Usage</h1>
        <a className="button secondary" href={`/api/usage?from=${period.from}&to=${period.to}&format=csv`} download data-testid="usage-csv">Export CSV</a>
      </div>
      <form method="get" className="row wrap" aria-label="Period" onSubmit={(e) => { e.preventDefault(); setPeriod(draft); }}>
        {presets.map(([label, days]) => (
          <button key={label} type="button" className="secondary" onClick={() => { const p = { from: daysBefore(today, days), to: today }; setDraft(p); setPeriod(p); }}>{label}</button>
        ))}
        <label className="inline">From <input type="date" name="from" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} /></label>
        <label className="inline">To <input type="date" name="to" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} /></label>
        <button type="submit">Show</button>
      </form>
      {error && <p className="error" role="alert">{error.message}</p>}
      <section className="panel">
        <p data-testid="usage-total"><strong>{usd(total?.costUsd ?? 0)}</strong> spent from {period.from} to {period.to} (UTC) ·{" "}
          {n(total?.inputTokens ?? 0)} tokens in, {n(total?.cachedTokens ?? 0)} cached, {n(total?.outputTokens ?? 0)} out</p>
        <SpendChart rows={rows} from={period.from} to={period.to} />
      </section>
      <SplitTable title="By project" column="Project" testId="usage-by-project" rows={splitBy(rows, (r) => r.project)} />
      <SplitTable title="By profile and model" column="Profile · model" testId="usage-by-model" rows={splitBy(rows, (r) => `${r.profile ?? "no profile"} · ${r.model ?? "default model"}`)} />
      <SplitTable title="By person who queued the work" column="Person" testId="usage-by-person" rows={splitBy(rows, (r) => r.person ?? "no person (planner, prompt files, reviews)")} />
      <section className="panel table-wrap">
        <h2>Most expensive runs</h2>
        <table className="table" data-testid="usage-top-runs">
          <thead><tr><th scope="col">Run</th><th scope="col">Project</th><th scope="col">Status</th><th scope="col">Cost</th></tr></thead>
          <tbody>
            {(data?.topRuns ?? []).map((r) => (
              <tr key={r.runId}><td><Link href={`/runs/${r.runId}`}>{r.title}</Link></td><td>{r.project}</td><td>{r.status}</td><td>{usd(r.costUsd)}</td></tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
