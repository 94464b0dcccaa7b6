import { z } from "zod";
import { wholeNumber } from "@/lib/validation/numbers";
import { getDb } from "@/lib/db";
import { AccessError } from "@/lib/auth/access";
import { SYSTEM, type AuditBy } from "@/lib/audit/record";
import { commitChange } from "@/lib/activity/change";
import { sandboxSettingsShape } from "@/lib/sandbox/settings-schema";
import { budgetShape, ceilingShape, loopLimitShape, wallTimeShape } from "@/lib/spend/ceiling-input";

const int = (min: number, max: number, unit = "") => wholeNumber(min, max, unit, "bounds");

// One schema for the settings form and the API; every field optional in an update.
export const settingsInput = z.object({
  tickIntervalMs: int(1000, 3_600_000, " ms"),
  maxParallel: int(1, 50),
  parallelEnabled: z.boolean(),
  spawnCooldownMs: int(0, 600_000, " ms"),
  plannerEnabled: z.boolean(),
  prCheckFrequency: int(1, 100, " ticks"),
  reviewDetectionString: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  rerunComment: z.string().trim().min(1, "is required").max(500, "must be at most 500 characters"),
  maxFixCycles: int(0, 20),
  autoMerge: z.boolean(),
  mergeMethod: z.enum(["merge", "squash", "rebase"], { error: "must be merge, squash or rebase" }),
  maxAttempts: int(1, 10),
  ...wallTimeShape,
  verifyCommand: z.string().trim().max(1000, "must be at most 1000 characters").nullable().transform((v) => v || null),
  modelRouting: z.record(
    z.string().regex(/^[a-z0-9_-]{1,40}$/, "domain names use a-z, 0-9, _ and - (at most 40)"),
    z.string().trim().min(1, "needs a model name").max(100),
  ),
  approvalPolicy: z.enum(["none", "planner", "all"], { error: "must be none, planner or all" }),
  approveMerges: z.boolean(),
  approveFixPastCap: z.boolean(),
  executorProfileId: z.string().nullable(),
  plannerProfileId: z.string().nullable(),
  useRunners: z.boolean(),
  ...sandboxSettingsShape,
  ...ceilingShape,
  ...loopLimitShape,
  ...budgetShape,
  budgetStopsRuns: z.boolean(),
}).partial().strict();

/** Only an owner sets what the team may spend. */
export const OWNER_SETTINGS = ["dailyBudgetUsd", "monthlyBudgetUsd", "budgetStopsRuns"] as const;

export type SettingsInput = z.input<typeof settingsInput>;

/** A project's settings; the caller has checked access. */
export function getProjectSettings(projectId: string) {
  return getDb().projectSettings.findUniqueOrThrow({ where: { projectId } });
}

/**
 * Validates and applies a settings change; the tick schedule follows the interval. Budgets
 * change only with `mayChangeBudgets` (an owner); the same values sent back unchanged pass.
 */
export async function updateSettings(project: { id: string; teamId: string }, raw: unknown, by: AuditBy = SYSTEM, opts: { mayChangeBudgets: boolean } = { mayChangeBudgets: true }) {
  const input = settingsInput.parse(raw);
  const db = getDb();
  if (!opts.mayChangeBudgets) {
    const current = await db.projectSettings.findUniqueOrThrow({ where: { projectId: project.id } });
    const touched = OWNER_SETTINGS.find((k) => k in input && input[k] !== current[k]);
    if (touched) throw new AccessError(403, `requires the owner role to change ${touched}`);
  }
  for (const key of ["executorProfileId", "plannerProfileId"] as const) {
    const id = input[key];
    if (id && !(await db.agentProfile.findFirst({ where: { id, teamId: project.teamId } }))) {
      throw new z.ZodError([{ code: "custom", path: [key], message: "is not an agent profile of this team", input: id }]);
    }
  }
  const before = await db.projectSettings.findUniqueOrThrow({ where: { projectId: project.id } });
  return commitChange(project, (tx) => tx.projectSettings.update({ where: { projectId: project.id }, data: input }), (after) => {
    const changed = Object.keys(input).filter((k) => JSON.stringify(before[k as keyof typeof before]) !== JSON.stringify(after[k as keyof typeof after]));
    if (!changed.length) return null;
    const pick = (row: Record<string, unknown>) => Object.fromEntries(changed.map((k) => [k, row[k]]));
    return {
      audit: { by, action: "settings.updated", target: { type: "project", id: project.id }, before: pick(before), after: pick(after) },
      activity: ["projectChange", `Settings changed: ${changed.join(", ")}`],
      nudge: "settings changed",
      // The periodic tick follows the interval.
      wakeUps: after.tickIntervalMs !== before.tickIntervalMs ? [{ kind: "schedule", projectId: project.id }] : [],
    };
  });
}
