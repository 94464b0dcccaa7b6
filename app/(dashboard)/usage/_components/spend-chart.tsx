"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsageRow } from "@/lib/budgets/usage";

const COLORS = ["#2563eb", "#16a34a", "#d97706", "#db2777", "#7c3aed", "#0891b2", "#65a30d", "#dc2626"];

/** Spend per UTC day, one stacked bar segment per project; every day of the period has a bar. */
export function SpendChart({ rows, from, to }: { rows: UsageRow[]; from: string; to: string }) {
  const projects = [...new Set(rows.map((r) => r.project))];
  const days: Record<string, string | number>[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days.push({ day: new Date(t).toISOString().slice(5, 10) });
  }
  for (const r of rows) {
    const d = days.find((x) => x.day === r.day.slice(5));
    if (d) d[r.project] = Number(d[r.project] ?? 0) + r.costUsd;
  }
  return (
    <div className="chart" data-testid="spend-chart">
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={12} />
          <YAxis fontSize={12} tickFormatter={(v: number) => `$${v.toFixed(2)}`} width={56} />
          <Tooltip formatter={(v) => `$${Number(v).toFixed(4)}`} />
          <Legend />
          {projects.map((p, i) => <Bar key={p} dataKey={p} stackId="spend" fill={COLORS[i % COLORS.length]} isAnimationActive={false} />)}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
