import { z } from "zod";
import { getDb, getPool, prepared } from "@/lib/db";
import { requireRole, requireTeamScope, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { usdPerMillion } from "@/lib/spend/ceiling-input";
import { overrideTable, type PriceOverrideRow, type PriceTable } from "@/lib/spend/prices";

const row = z.object({
  // A prefix of model names as the CLIs report them, e.g. claude-sonnet-4-5 or gpt-5.
  model: z.string().trim().toLowerCase().min(1, "is required").max(100, "must be at most 100 characters")
    .regex(/^[a-z0-9][a-z0-9._:@-]*$/, "names a model with letters, digits and . _ : @ - (e.g. claude-sonnet-4-5)"),
  input: usdPerMillion,
  output: usdPerMillion,
  cached: usdPerMillion,
}).strict();

/** The whole table at once: what is not in it falls back to the shipped list price. */
export const pricesInput = z.object({
  prices: z.array(row).max(200, "may hold at most 200 models")
    .refine((rows) => new Set(rows.map((r) => r.model)).size === rows.length, "names a model twice"),
}).strict();

// Read on every run's start: on the pool, not through Prisma's query compiler.
async function listPrices(teamId: string): Promise<PriceOverrideRow[]> {
  const { rows } = await getPool().query<PriceOverrideRow>(prepared(`SELECT model, input, output, cached FROM "PriceOverride" WHERE "teamId" = $1 ORDER BY model`, [teamId]));
  return rows;
}

/** The team's own prices, for an admin. */
export async function getTeamPrices(actor: Actor): Promise<PriceOverrideRow[]> {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  return listPrices(actor.teamId);
}

/** An admin replaces the team's price table (audited); runs started afterwards are metered by it. */
export async function setTeamPrices(actor: Actor, raw: unknown): Promise<PriceOverrideRow[]> {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const { prices } = pricesInput.parse(raw);
  const before = await listPrices(actor.teamId);
  await getDb().$transaction([
    getDb().priceOverride.deleteMany({ where: { teamId: actor.teamId } }),
    getDb().priceOverride.createMany({ data: prices.map((p) => ({ ...p, teamId: actor.teamId })) }),
  ]);
  const after = await listPrices(actor.teamId);
  await recordAudit({ teamId: actor.teamId, by: actor, action: "prices.team", target: { type: "team", id: actor.teamId }, before: { prices: before }, after: { prices: after } });
  return after;
}

/** The price table a run of this team is metered with. */
export async function teamPriceTable(teamId: string): Promise<PriceTable> {
  return overrideTable(await listPrices(teamId));
}
