import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { getDb, getPool, prepared, type Prisma, type RunKind } from "@/lib/db";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { reserveForRun } from "@/lib/budgets/reserve";
import { claimInOneStatement, PLANNING_KINDS, type ModelTable } from "@/lib/runs/claim-statement";

export interface Profile { id: string; adapter: string; model: string | null; fallbackModel: string | null }

/**
 * Seed 002's model routing: the prompt's domain picks the model (else the profile's), and each
 * retry alternates between it and the fallback (`get_fallback_model`): attempts 2 and 4 on the
 * fallback, 3 back on the first model. A routed model's fallback is the profile's fallback model,
 * or the profile's own model when the route already names the fallback.
 */
export function chooseModel(profile: Profile, routing: unknown, domain: string | null, attempt: number): string | null {
  const table = (routing ?? {}) as Record<string, unknown>;
  const routed = domain ? table[domain] : undefined;
  const first = typeof routed === "string" && routed ? routed : profile.model;
  const fallback = profile.fallbackModel && profile.fallbackModel !== first ? profile.fallbackModel : profile.model;
  return attempt % 2 === 0 && fallback ? fallback : first;
}

// Claims of a project queue on its loop state's row lock, and claims under a budget on their
// team's: on a loaded machine the last of a burst waits well past Prisma's 5 s default.
const CLAIM_TRANSACTION = { maxWait: 30_000, timeout: 30_000 };

export interface SpawnLimits {
  maxExecutors: number;
  cooldownMs: number;
  /** Parallel off: a run whose merge has not landed still holds its slot. */
  mergesHoldSlot?: boolean;
}

export { PLANNING_KINDS };

/**
 * Invariant 2 under a row lock on the project's loop state: ticks are serialized by the
 * tick lock, but this holds even if two ever overlap (a lock that expired mid-tick).
 */
async function slotStillFree(tx: Prisma.TransactionClient, projectId: string, limits: SpawnLimits, now: Date): Promise<boolean> {
  const [state] = await tx.$queryRaw<{ lastSpawnAt: Date | null }[]>`
    SELECT "lastSpawnAt" FROM "LoopState" WHERE "projectId" = ${projectId} FOR UPDATE`;
  if (!state) return false;
  // A cooldown of 0 holds nothing, even when a racing claim stamped a later instant than this one's `now`.
  if (limits.cooldownMs > 0 && state.lastSpawnAt && now.getTime() - state.lastSpawnAt.getTime() < limits.cooldownMs) return false;
  const live = await tx.run.groupBy({
    by: ["kind"], where: { projectId, status: { in: [...LIVE_RUN_STATUSES] }, kind: { in: ["executor", ...PLANNING_KINDS] } }, _count: { _all: true },
  });
  const count = (kind: string) => live.find((l) => l.kind === kind)?._count._all ?? 0;
  const merging = limits.mergesHoldSlot ? await mergesHoldingSlot(tx, projectId) : 0;
  return PLANNING_KINDS.every((k) => count(k) === 0) && count("executor") + merging < limits.maxExecutors;
}

/** Work not on the base branch yet: merges pending here, and open PRs whose prompt waits for them. */
async function mergesHoldingSlot(tx: Prisma.TransactionClient, projectId: string): Promise<number> {
  // One after the other: a transaction is one connection.
  const pending = await tx.run.count({ where: { projectId, status: "succeeded", mergeStatus: "pending" } });
  return pending + await tx.pullRequest.count({ where: { projectId, state: "open", prompt: { status: "in_progress" } } });
}

export interface ClaimInput {
  projectId: string;
  promptId: string;
  profile: Profile;
  routing: unknown;
  now: Date;
  limits: SpawnLimits;
  /** The run is for remote runners to pull, not for a spawn worker. */
  remote?: boolean;
}

/** What a claim needs of an agent profile, in one light query (the tick's spawn path). */
export async function getClaimProfile(id: string): Promise<Profile | null> {
  const { rows } = await getPool().query<Profile>(prepared(`SELECT id, adapter, model, "fallbackModel" FROM "AgentProfile" WHERE id = $1`, [id]));
  return rows[0] ?? null;
}

/** chooseModel for every domain the routing names, as the claim statement picks it: [even attempt, odd attempt]. */
export function modelTable(profile: Profile, routing: unknown): ModelTable {
  const pair = (domain: string | null) => [chooseModel(profile, routing, domain, 2), chooseModel(profile, routing, domain, 1)];
  const otherwise = pair(null);
  const routes: Record<string, (string | null)[]> = {};
  for (const domain of Object.keys((routing ?? {}) as object)) {
    const models = pair(domain);
    if (models.some((m, i) => m !== otherwise[i])) routes[domain] = models;
  }
  return { routes, otherwise };
}

/**
 * Claims a pending prompt and creates its run, atomically. The claim is a conditional update:
 * a racing tick, worker process or retry gets null and does nothing. A budget that cannot take
 * the run throws BudgetRefusal. One statement on the hot path (lib/runs/claim-statement.ts); a
 * transaction when a budget applies or a racing claim may have moved the loop state under it.
 */
export async function claimPromptForRun(input: ClaimInput) {
  const claimed = await claimInOneStatement(input, modelTable(input.profile, input.routing));
  return claimed === "locked" ? claimInTransaction(input) : claimed;
}

async function claimInTransaction(input: ClaimInput) {
  return getDb().$transaction(async (tx) => {
    if (!(await slotStillFree(tx, input.projectId, input.limits, input.now))) return null;
    const reservedUsd = await reserveForRun(tx, input.projectId, input.profile.id, input.now);
    const claimed = await changePromptStatus(input.promptId, { from: "pending", to: "in_progress", where: { projectId: input.projectId } }, tx, input.now);
    if (!claimed) return null;
    const prompt = await tx.prompt.findUniqueOrThrow({ where: { id: input.promptId } });
    const attempt = prompt.attempts + 1;
    const run = await tx.run.create({
      data: {
        projectId: input.projectId,
        promptId: prompt.id,
        kind: "executor",
        // A prompt routed to one runner agent is that agent's run, whatever the project's setting.
        remote: Boolean(prompt.pinnedAgentId) || (input.remote ?? false),
        remoteAgentId: prompt.pinnedAgentId,
        attempt,
        agentProfileId: input.profile.id,
        adapter: input.profile.adapter,
        model: chooseModel(input.profile, input.routing, prompt.domain, attempt),
        reservedUsd,
      },
    });
    await tx.loopState.update({ where: { projectId: input.projectId }, data: { lastSpawnAt: input.now } });
    return { run, prompt };
  }, CLAIM_TRANSACTION);
}

/** A run without a prompt (the planner; a campaign's architect or reflector). */
export async function createPromptlessRun(input: { projectId: string; kind: RunKind; profile: Profile; now: Date; loopState: Record<string, unknown>; limits: SpawnLimits; campaignId?: string }) {
  return getDb().$transaction(async (tx) => {
    if (!(await slotStillFree(tx, input.projectId, input.limits, input.now))) return null;
    const reservedUsd = await reserveForRun(tx, input.projectId, input.profile.id, input.now);
    const run = await tx.run.create({
      data: { projectId: input.projectId, kind: input.kind, agentProfileId: input.profile.id, adapter: input.profile.adapter, model: input.profile.model, reservedUsd, campaignId: input.campaignId },
    });
    await tx.loopState.update({ where: { projectId: input.projectId }, data: { lastSpawnAt: input.now, ...input.loopState } });
    return run;
  }, CLAIM_TRANSACTION);
}
