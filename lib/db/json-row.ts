import { getDb } from "@/lib/db/client";

export type JsonRowModel = "run" | "prompt" | "project" | "projectSettings" | "agentProfile";
type Fields = Record<string, { typeName: string }>;
type Converter = [name: string, convert: (v: never) => unknown];

/**
 * Scalar lists, which a row may hold as NULL and Prisma reads as []. The client's field references
 * do not tell a list from a scalar, so they are named here (json-row.test.ts checks them against
 * the schema).
 */
export const LIST_FIELDS: Record<JsonRowModel, string[]> = {
  run: [],
  prompt: ["dependencies"],
  project: [],
  projectSettings: ["egressPresets", "egressRules"],
  agentProfile: ["envAllowList", "extraArgs"],
};

const converters = new Map<JsonRowModel, Converter[]>();

// Timestamps from the client's own field references, so a column added to the schema is
// converted without anyone listing it here.
function convertersOf(model: JsonRowModel) {
  let list = converters.get(model);
  if (!list) {
    const fields = getDb()[model].fields as unknown as Fields;
    list = [
      ...LIST_FIELDS[model].map((name): Converter => [name, (v: unknown[] | null) => v ?? []]),
      ...Object.entries(fields).flatMap(([name, f]): Converter[] =>
        // Prisma stores DateTime as a UTC timestamp without a zone, which to_jsonb prints without one.
        f.typeName === "DateTime" ? [[name, (v: string | null) => v === null ? null : new Date(`${v}Z`)]] : []),
    ];
    converters.set(model, list);
  }
  return list;
}

/**
 * A row a hand-written statement returned as `to_jsonb(row)`, typed as Prisma reads it
 * (timestamps as Dates, a NULL list as []): one statement can then claim
 * and read at once.
 */
export function fromJsonRow<T>(model: JsonRowModel, row: Record<string, unknown>): T;
export function fromJsonRow<T>(model: JsonRowModel, row: Record<string, unknown> | null): T | null;
export function fromJsonRow<T>(model: JsonRowModel, row: Record<string, unknown> | null): T | null {
  if (row === null) return null;
  const out: Record<string, unknown> = { ...row };
  for (const [name, convert] of convertersOf(model)) out[name] = convert(out[name] as never);
  return out as T;
}
