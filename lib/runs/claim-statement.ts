import { randomUUID } from "node:crypto";
import { fromJsonRow, getPool, prepared, type PromptModel, type RunModel } from "@/lib/db";
import { LIVE_RUN_STATUSES_SQL } from "@/lib/run-statuses";
import { statusColumns } from "@/lib/prompts/transitions";
import type { ClaimInput } from "@/lib/runs/claim";

/** Runs that plan or check the work: one at a time per project, and no executor starts beside one. */
export const PLANNING_KINDS = ["planner", "architect", "reflector"] as const;
const PLANNING_SQL = PLANNING_KINDS.map((k) => `'${k}'`).join(", ");

/**
 * The claim of lib/runs/claim.ts in one statement, one round trip and one commit: the slot rules
 * under the loop state's row lock, the prompt moved pending → in_progress, its run created, the
 * spawn time stamped. A statement reads one snapshot, taken before it waits for the row lock; every
 * claim writes that row, so a row newer under the lock than in the snapshot means a claim may have
 * committed unseen: then ("locked") the caller claims again in a transaction that reads after the
 * lock. A project or team with a budget goes to that transaction at once (before the row lock is
 * taken): its admission (lib/budgets/reserve.ts) is made there, after the same slot rules.
 */
const CLAIM_SQL = `
  WITH locked AS MATERIALIZED (
    SELECT "lastSpawnAt", xmin::text AS version FROM "LoopState" WHERE "projectId" = $1 FOR UPDATE
  ), verdict AS MATERIALIZED (
    SELECT CASE
      WHEN EXISTS (SELECT 1 FROM "Project" p JOIN "Team" t ON t.id = p."teamId" LEFT JOIN "ProjectSettings" s ON s."projectId" = p.id
        WHERE p.id = $1 AND COALESCE(t."dailyBudgetUsd", t."monthlyBudgetUsd", s."dailyBudgetUsd", s."monthlyBudgetUsd") IS NOT NULL) THEN 'locked'
      WHEN NOT EXISTS (SELECT 1 FROM locked) THEN 'none'
      WHEN (SELECT version FROM locked) IS DISTINCT FROM (SELECT xmin::text FROM "LoopState" WHERE "projectId" = $1) THEN 'locked'
      WHEN $4::int > 0 AND (SELECT "lastSpawnAt" FROM locked) > $3::timestamp - make_interval(secs => $4::int / 1000.0) THEN 'none'
      WHEN EXISTS (SELECT 1 FROM "Run" WHERE "projectId" = $1 AND status IN (${LIVE_RUN_STATUSES_SQL}) AND kind IN (${PLANNING_SQL})) THEN 'none'
      WHEN (SELECT count(*) FROM "Run" WHERE "projectId" = $1 AND status IN (${LIVE_RUN_STATUSES_SQL}) AND kind = 'executor')
        + CASE WHEN $6::boolean THEN
            (SELECT count(*) FROM "Run" WHERE "projectId" = $1 AND status = 'succeeded' AND "mergeStatus" = 'pending')
            + (SELECT count(*) FROM "PullRequest" pr JOIN "Prompt" pq ON pq.id = pr."promptId" AND pq.status = 'in_progress'
               WHERE pr."projectId" = $1 AND pr.state = 'open')
          ELSE 0 END >= $5::int THEN 'none'
      ELSE 'free' END AS v
  ), prompt AS (
    UPDATE "Prompt" q SET status = $7::"PromptStatus", "completedAt" = $8::timestamp, "updatedAt" = $9::timestamp
    FROM verdict WHERE verdict.v = 'free' AND q.id = $2 AND q."projectId" = $1 AND q.status = 'pending'
    RETURNING q.*
  ), run AS (
    INSERT INTO "Run" (id, "projectId", "promptId", kind, attempt, "agentProfileId", adapter, model, remote, "remoteAgentId", "queuedAt")
    SELECT $10, $1, q.id, 'executor', q.attempts + 1, $11, $12,
      COALESCE($13::jsonb -> q.domain, $14::jsonb) ->> ((q.attempts + 1) % 2),
      q."pinnedAgentId" IS NOT NULL OR $15::boolean, q."pinnedAgentId", $9::timestamp
    FROM prompt q
    RETURNING *
  ), stamped AS (
    UPDATE "LoopState" SET "lastSpawnAt" = $3::timestamp, "updatedAt" = $9::timestamp
    WHERE "projectId" = $1 AND EXISTS (SELECT 1 FROM run)
  )
  SELECT v AS verdict, (SELECT to_jsonb(run) FROM run) AS run, (SELECT to_jsonb(prompt) FROM prompt) AS prompt FROM verdict`;

/** Seed 002's model per domain the routing names, else `otherwise`; each a pair indexed by the attempt's parity. */
export interface ModelTable { routes: Record<string, (string | null)[]>; otherwise: (string | null)[] }

export type StatementClaim = { run: RunModel; prompt: PromptModel } | null | "locked";

export async function claimInOneStatement(input: ClaimInput, models: ModelTable): Promise<StatementClaim> {
  // `now` is the tick's clock (the spawn time, the cooldown); rows are stamped with the real time, as Prisma stamps them.
  const stamp = new Date().toISOString();
  const moved = statusColumns(["pending"], "in_progress", input.now);
  const { rows: [row] } = await getPool().query<{ verdict: string; run: Record<string, unknown> | null; prompt: Record<string, unknown> | null }>(prepared(CLAIM_SQL, [
    input.projectId, input.promptId, input.now.toISOString(), input.limits.cooldownMs, input.limits.maxExecutors, input.limits.mergesHoldSlot ?? false,
    moved.status, moved.completedAt?.toISOString() ?? null, stamp,
    randomUUID(), input.profile.id, input.profile.adapter, JSON.stringify(models.routes), JSON.stringify(models.otherwise), input.remote ?? false,
  ]));
  if (row.verdict === "locked") return "locked";
  return row.run ? { run: fromJsonRow<RunModel>("run", row.run), prompt: fromJsonRow<PromptModel>("prompt", row.prompt!) } : null;
}
