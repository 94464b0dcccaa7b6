import { z } from "zod";
import { isSafeText } from "@/lib/validation/safe-text";

/** A plan larger than this is refused before it is parsed: an architect that rambles is not a plan. */
export const MAX_PLAN_BYTES = 1024 * 1024;

const text = (max: number) => z.string().trim().max(max).refine(isSafeText, "must not contain NUL characters");
const list = (max: number) => z.array(text(2_000)).max(max).default([]);

// Task ids become commit scopes (`feat(<id>): …`) and prompt references: short and plain.
const taskId = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,39}$/i, "must be 1-40 letters, digits, dots, dashes or underscores");

export const planTask = z.object({
  id: taskId,
  description: text(500).pipe(z.string().min(1, "is required")),
  files: z.array(z.string().trim().min(1).max(500).refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), "must be a path inside the repository"))
    .max(50).default([]),
  stepHints: list(50),
  entryCriteria: list(20),
  exitCriteria: list(20),
  dependencies: z.array(taskId).max(100).default([]),
  domain: z.string().trim().max(50).optional(),
});

export const planSchema = z.object({
  tasks: z.array(planTask).min(1, "needs at least one task").max(200),
});

export type Plan = z.infer<typeof planSchema>;
export type PlanTask = z.infer<typeof planTask>;

export type PlanResult = { ok: true; plan: Plan } | { ok: false; errors: string[] };

/**
 * Reads the architect's answer: the JSON itself, or the last ```json block of a prose answer.
 * Every problem is named (size, JSON, schema path, unknown or duplicate ids, cycles), because the
 * errors become the failed run's log and the next attempt's evidence.
 */
export function parsePlan(answer: string): PlanResult {
  if (Buffer.byteLength(answer) > MAX_PLAN_BYTES) return { ok: false, errors: [`the plan is larger than ${MAX_PLAN_BYTES} bytes`] };
  let json: unknown;
  try {
    json = JSON.parse(extractJson(answer));
  } catch (err) {
    return { ok: false, errors: [`the plan is not valid JSON: ${(err as Error).message}`] };
  }
  const parsed = planSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map((i) => `${i.path.join(".") || "plan"}: ${i.message}`) };
  }
  const errors = graphErrors(parsed.data.tasks);
  return errors.length ? { ok: false, errors } : { ok: true, plan: parsed.data };
}

function extractJson(answer: string): string {
  const blocks = [...answer.matchAll(/```(?:json)?\s*\n([\s\S]*?)\n```/g)];
  return blocks.length ? blocks[blocks.length - 1][1] : answer.trim();
}

/** Duplicate ids, dependencies on tasks the plan does not have, and cycles. */
export function graphErrors(tasks: PlanTask[]): string[] {
  const errors: string[] = [];
  const ids = new Set<string>();
  for (const t of tasks) {
    if (ids.has(t.id)) errors.push(`tasks: the id "${t.id}" is used twice`);
    ids.add(t.id);
  }
  for (const t of tasks) {
    for (const d of t.dependencies) {
      if (!ids.has(d)) errors.push(`task ${t.id}: depends on unknown task "${d}"`);
      else if (d === t.id) errors.push(`task ${t.id}: depends on itself`);
    }
  }
  if (errors.length) return errors;
  const cycle = findCycle(tasks);
  return cycle ? [`dependency cycle: ${cycle.join(" → ")}`] : [];
}

function findCycle(tasks: PlanTask[]): string[] | null {
  const deps = new Map(tasks.map((t) => [t.id, t.dependencies]));
  const state = new Map<string, "visiting" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === "done") return null;
    if (state.get(id) === "visiting") return [...path.slice(path.indexOf(id)), id];
    state.set(id, "visiting");
    path.push(id);
    for (const d of deps.get(id) ?? []) {
      const found = visit(d);
      if (found) return found;
    }
    path.pop();
    state.set(id, "done");
    return null;
  };
  for (const t of tasks) {
    const found = visit(t.id);
    if (found) return found;
  }
  return null;
}

/** Tasks in an order where each comes after its dependencies (the plan is acyclic). */
export function orderTasks(tasks: PlanTask[]): PlanTask[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const out: PlanTask[] = [];
  const seen = new Set<string>();
  const add = (t: PlanTask) => {
    if (seen.has(t.id)) return;
    seen.add(t.id);
    for (const d of t.dependencies) add(byId.get(d)!);
    out.push(t);
  };
  tasks.forEach(add);
  return out;
}
