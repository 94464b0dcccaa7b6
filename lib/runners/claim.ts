import { getDb, Prisma, type AgentModel as Agent } from "@/lib/db";
import { TRIGGER_ROLES, TRIGGER_TYPES, type TriggerType } from "@/lib/runners/trigger-types";
import { claimMention, claimWorkerFinished, type ConversationClaim } from "@/lib/runners/conversation";
import { silentAfterMs } from "@/lib/routing/agents";

type Tx = Prisma.TransactionClient;

/** What a poll claimed: a run now held by the agent, or an offer now delivered to it. */
export type Claimed = { type: "task_offered"; offerId: string } | { type: "task_assigned" | "pool_task"; runId: string } | ConversationClaim;

export interface ClaimOptions {
  now: Date;
  leaseTtlMs: number;
}

type Finder = (tx: Tx, agent: Agent, opts: ClaimOptions) => Promise<Claimed | null>;

const takeRun = async (tx: Tx, agent: Agent, opts: ClaimOptions, which: Prisma.Sql): Promise<string | null> => {
  const lease = new Date(opts.now.getTime() + opts.leaseTtlMs);
  const rows = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
    WITH candidate AS (
      SELECT r.id FROM "Run" r
      JOIN "Project" p ON p.id = r."projectId" AND p."teamId" = ${agent.teamId} AND p."archivedAt" IS NULL
      LEFT JOIN "Prompt" q ON q.id = r."promptId"
      LEFT JOIN "Agent" holder ON holder.id = r."remoteAgentId"
      WHERE r.remote AND r.status = 'queued'
        AND (${agent.projectId}::text IS NULL OR r."projectId" = ${agent.projectId})
        AND ${which}
      ORDER BY r."queuedAt", r.id
      LIMIT 1 FOR UPDATE OF r SKIP LOCKED
    )
    UPDATE "Run" SET status = 'starting', "remoteAgentId" = ${agent.id}, "workerId" = ${`runner:${agent.id}`},
      "leaseExpiresAt" = ${lease}, "heartbeatAt" = ${opts.now}
    FROM candidate WHERE "Run".id = candidate.id
    RETURNING "Run".id`);
  return rows[0]?.id ?? null;
};

const FINDERS: Record<TriggerType, Finder> = {
  // An offer is delivered once; the agent then accepts or rejects it (lib/runners/offers.ts).
  task_offered: async (tx, agent, { now }) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "TaskOffer" SET status = 'delivered'
      WHERE id = (SELECT id FROM "TaskOffer" WHERE "agentId" = ${agent.id} AND status = 'offered' AND "expiresAt" > ${now}
                  ORDER BY "createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    return rows[0] ? { type: "task_offered", offerId: rows[0].id } : null;
  },
  task_assigned: async (tx, agent, opts) => {
    const runId = await takeRun(tx, agent, opts, Prisma.sql`r."remoteAgentId" = ${agent.id}`);
    return runId ? { type: "task_assigned", runId } : null;
  },
  unread_mention: claimMention,
  worker_finished: claimWorkerFinished,
  pool_task: async (tx, agent, opts) => {
    const silentSince = new Date(opts.now.getTime() - silentAfterMs(opts.leaseTtlMs));
    const runId = await takeRun(tx, agent, opts, Prisma.sql`
      (r."remoteAgentId" IS NULL OR holder.status = 'offline' OR holder."lastSeenAt" < ${silentSince})
      -- a prompt routed to another agent is that agent's, until the tick releases the pin of a vanished one
      AND (q."pinnedAgentId" IS NULL OR q."pinnedAgentId" = ${agent.id})
      AND (q.domain IS NULL OR q.domain = ANY(${agent.capabilities}::text[]) OR '*' = ANY(${agent.capabilities}::text[]))
      AND NOT EXISTS (
        SELECT 1 FROM "TaskOffer" o JOIN "Agent" oa ON oa.id = o."agentId"
        WHERE o."promptId" = r."promptId" AND o."agentId" <> ${agent.id} AND o.status IN ('offered', 'delivered')
          AND o."expiresAt" > ${opts.now} AND oa.status <> 'offline' AND oa."lastSeenAt" >= ${silentSince})`);
    return runId ? { type: "pool_task", runId } : null;
  },
};

/**
 * Looks for the agent's next trigger in seed 004's order and claims it, all in one
 * transaction: two polls of one agent are serialized on its row, so per-agent
 * `maxConcurrent` holds; two agents racing for one run are settled by SKIP LOCKED and the
 * conditional update, so a run is handed to exactly one of them.
 */
export async function claimTrigger(agent: Agent, opts: ClaimOptions): Promise<Claimed | null> {
  return getDb().$transaction(async (tx) => {
    // Locks the agent's row; a look for work is also presence, so it marks the agent seen.
    await tx.$executeRaw`UPDATE "Agent" SET "lastSeenAt" = ${opts.now} WHERE id = ${agent.id}`;
    const holding = await tx.run.count({ where: { remoteAgentId: agent.id, status: { in: ["starting", "running"] } } });
    for (const type of TRIGGER_TYPES) {
      const find = FINDERS[type];
      if (!TRIGGER_ROLES[type].includes(agent.role)) continue;
      // Offers only ask a question; everything else starts an agent and needs a free slot.
      if (type !== "task_offered" && holding >= agent.maxConcurrent) continue;
      const claimed = await find(tx, agent, opts);
      if (claimed) return claimed;
    }
    return null;
    // A thousand polls held open on one web process all look when the server starts or a wake-up
    // comes: each waits its turn for a pooled connection instead of failing after Prisma's 2 s.
  }, { maxWait: 30_000, timeout: 30_000 });
}
