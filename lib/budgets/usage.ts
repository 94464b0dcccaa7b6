import { z } from "zod";
import { getDb } from "@/lib/db";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-11-23")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "is not a date");

/** The Usage page's period: UTC days from `from` to `to`, both included, at most a year. */
export const usagePeriodInput = z.object({ from: day, to: day }).strict()
  .refine((p) => p.from <= p.to, { path: ["to"], message: "must not be before from" })
  .refine((p) => Date.parse(p.to) - Date.parse(p.from) <= 366 * 86_400_000, { path: ["to"], message: "must be at most 366 days after from" });

export type UsagePeriod = z.infer<typeof usagePeriodInput>;

/** One ledger group: a UTC day, project, agent profile, model and the person who queued the work. */
export type UsageRow = {
  day: string; projectId: string; project: string; profile: string | null; model: string | null; person: string | null;
  inputTokens: number; cachedTokens: number; outputTokens: number; costUsd: number;
};

export type TopRun = { runId: string; projectId: string; project: string; title: string; status: string; costUsd: number };

const bounds = (p: UsagePeriod) => [new Date(`${p.from}T00:00:00Z`), new Date(Date.parse(`${p.to}T00:00:00Z`) + 86_400_000)] as const;

/** The team's spend in the period, grouped finely enough for every split the page and the CSV show. */
export async function usageRows(teamId: string, period: UsagePeriod): Promise<UsageRow[]> {
  const [from, to] = bounds(period);
  const rows = await getDb().$queryRaw<UsageRow[]>`
    SELECT to_char(e."createdAt", 'YYYY-MM-DD') AS day, e."projectId", p.name AS project, ap.name AS profile, e.model,
      COALESCE(u.name, u.email) AS person,
      SUM(e."inputTokens")::float8 AS "inputTokens", SUM(e."cachedTokens")::float8 AS "cachedTokens",
      SUM(e."outputTokens")::float8 AS "outputTokens", SUM(e."costUsd")::float8 AS "costUsd"
    FROM "SpendEntry" e
    JOIN "Project" p ON p.id = e."projectId"
    LEFT JOIN "AgentProfile" ap ON ap.id = e."agentProfileId"
    LEFT JOIN "User" u ON u.id = e."queuedById"
    WHERE e."teamId" = ${teamId} AND e."createdAt" >= ${from} AND e."createdAt" < ${to}
    GROUP BY 1, 2, 3, 4, 5, 6
    ORDER BY 1, 3`;
  return rows;
}

/** The ten runs that spent most in the period (by their ledger lines in it). */
export async function topRuns(teamId: string, period: UsagePeriod): Promise<TopRun[]> {
  const [from, to] = bounds(period);
  return getDb().$queryRaw<TopRun[]>`
    SELECT r.id AS "runId", p.id AS "projectId", p.name AS project, r.status::text AS status,
      COALESCE('P' || q.number || ' ' || q.title, r.kind::text || ' run') AS title, SUM(e."costUsd")::float8 AS "costUsd"
    FROM "SpendEntry" e
    JOIN "Run" r ON r.id = e."runId"
    JOIN "Project" p ON p.id = e."projectId"
    LEFT JOIN "Prompt" q ON q.id = r."promptId"
    WHERE e."teamId" = ${teamId} AND e."createdAt" >= ${from} AND e."createdAt" < ${to}
    GROUP BY r.id, p.id, p.name, q.number, q.title
    ORDER BY "costUsd" DESC, r.id
    LIMIT 10`;
}

const CSV_COLUMNS = ["day", "project", "profile", "model", "person", "inputTokens", "cachedTokens", "outputTokens", "costUsd"] as const;

// A cell starting with = + - @ would run as a formula in a spreadsheet: quote it as text.
const cell = (v: unknown) => {
  const s = v === null || v === undefined ? "" : String(v);
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

export function usageCsv(rows: UsageRow[]): string {
  const lines = rows.map((r) => CSV_COLUMNS.map((c) => cell(c === "costUsd" ? r.costUsd.toFixed(6) : r[c])).join(","));
  return [CSV_COLUMNS.join(","), ...lines].join("\n") + "\n";
}
