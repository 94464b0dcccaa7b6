import { randomUUID } from "node:crypto";
import { ApprovalPolicy, fromJsonRow, getPool, prepared, Prisma, type PromptModel, type PromptOrigin } from "@/lib/db";
import type { AuditBy } from "@/lib/audit/record";
import { promptApproval, requesterOf } from "@/lib/approvals/request";
import { QUEUE_RAN_DRY } from "@/lib/activity/change";
import type { OutboxMessage, OutboxRow } from "@/lib/queues";

/**
 * A new prompt and everything that commits with it, in one statement (one round trip, no query
 * compiled on the way): whether its author is an agent (the run's token), its number (the next one
 * of the plan unless given), the approval the project's policy asks for and its inbox entry, the
 * audit and activity entries, the loop its queue ran dry on started again, and its wake-ups in the
 * outbox (the tick's nudge, and the periodic tick when the loop started again). The rules stay in
 * TypeScript: the approval for each policy and author comes in as a table (promptApproval), the
 * messages as JSON. A number taken meanwhile fails the statement on the plan's unique index
 * (isNumberTaken), and nothing of it is written.
 */
const CREATE_SQL = `
  WITH author AS MATERIALIZED (
    SELECT EXISTS (SELECT 1 FROM "ApiToken" WHERE id = $1 AND "runId" IS NOT NULL) AS agent
  ), prompt AS (
    INSERT INTO "Prompt" (id, "projectId", "planningKey", number, title, body, priority, dependencies, domain, origin, approval,
      "maxAttempts", "pinnedAgentId", "sourceUrl", "createdById", "createdAt", "updatedAt")
    SELECT $2, $3, $4,
      COALESCE($5::int, (SELECT COALESCE(max(number), 0) + 1 FROM "Prompt" WHERE "projectId" = $3 AND "planningKey" = $4)),
      $6, $7, $8::int, $9::int[], $10, ($11::jsonb ->> author.agent::text)::"PromptOrigin",
      ($12::jsonb -> author.agent::text ->> s."approvalPolicy"::text)::"ApprovalState",
      s."maxAttempts", $13, $14, $15, $16::timestamp, $16::timestamp
    FROM "ProjectSettings" s, author WHERE s."projectId" = $3
    RETURNING *
  ), approval AS (
    INSERT INTO "Approval" (id, "teamId", "projectId", kind, "promptId", "requestedBy", "createdAt")
    SELECT $17, $18, $3, 'prompt_run', p.id, $19, $16::timestamp FROM prompt p WHERE p.approval = 'pending'
  ), audit AS (
    INSERT INTO "AuditEvent" ("teamId", "actorType", "actorId", action, "targetType", "targetId", before, after, "createdAt")
    SELECT $18, $20, $21, 'prompt.created', 'prompt', p.id, 'null'::jsonb,
      jsonb_build_object('number', p.number, 'title', p.title, 'priority', p.priority, 'approval', p.approval), $16::timestamp
    FROM prompt p
  ), activity AS (
    INSERT INTO "ActivityEvent" ("projectId", type, message, data, "createdAt")
    SELECT $3, 'promptsChange', '#' || p.number || ' ' || p.title || ' added', jsonb_build_object('promptId', p.id), $16::timestamp
    FROM prompt p
  ), restarted AS (
    UPDATE "LoopState" SET mode = 'running', "pauseReason" = NULL, "updatedAt" = $16::timestamp
    WHERE "projectId" = $3 AND mode = 'stopped' AND "pauseReason" = $22 AND EXISTS (SELECT 1 FROM prompt)
    RETURNING 1
  ), outbox AS (
    INSERT INTO "Outbox" (kind, payload, "createdAt")
    SELECT m.message ->> 'kind', m.message, timezone('UTC', clock_timestamp()) FROM jsonb_array_elements($23::jsonb) WITH ORDINALITY AS m(message, position)
    WHERE EXISTS (SELECT 1 FROM prompt) AND (m.message ->> 'kind' <> 'schedule' OR EXISTS (SELECT 1 FROM restarted))
    ORDER BY m.position
    RETURNING id, payload
  )
  SELECT (SELECT to_jsonb(p) FROM prompt p) AS prompt,
    (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', id::text, 'message', payload) ORDER BY id), '[]'::jsonb) FROM outbox) AS outbox`;

/** The activity entry of a new prompt (the statement writes the same words). */
export const promptAddedMessage = (prompt: { number: number; title: string }) => `#${prompt.number} ${prompt.title} added`;

export interface NewPrompt {
  projectId: string;
  teamId: string;
  planningKey: string;
  /** The number asked for; absent: the plan's next. */
  number?: number;
  title: string;
  body: string;
  priority: number;
  dependencies: number[];
  domain?: string;
  pinnedAgentId?: string | null;
  sourceUrl?: string | null;
}

type Row = { prompt: Record<string, unknown> | null; outbox: OutboxRow[] };
/** Runs the statement: on the pool (it commits alone), or in the transaction of writes that must commit with it. */
export type Runner = (sql: string, params: unknown[]) => Promise<Row>;

export const onPool: Runner = async (sql, params) => (await getPool().query<Row>(prepared(sql, params))).rows[0];
export const inTransaction = (tx: Prisma.TransactionClient): Runner => async (sql, params) => (await tx.$queryRawUnsafe<Row[]>(sql, ...params))[0];

/**
 * Inserts the prompt with its approval, audit, activity and wake-ups. Returns the prompt as Prisma
 * reads it and the outbox rows to publish once it has committed.
 */
export async function insertPrompt(actor: AuditBy, input: NewPrompt, run: Runner = onPool): Promise<{ prompt: PromptModel; outbox: OutboxRow[] }> {
  const stamp = new Date().toISOString();
  const origins: Record<string, PromptOrigin> = { true: "planner", false: "user" };
  const approvals = Object.fromEntries([true, false].map((agent) =>
    [String(agent), Object.fromEntries(Object.values(ApprovalPolicy).map((policy) => [policy, promptApproval(policy, agent)]))]));
  const messages: OutboxMessage[] = [
    { kind: "schedule", projectId: input.projectId, nudged: true },
    { kind: "tick", projectId: input.projectId, reason: "prompt created" },
  ];
  // Before the statement: its outbox rows are no older than this (their createdAt is its clock).
  const writtenAfter = performance.now();
  const row = await run(CREATE_SQL, [
    actor.kind === "token" ? actor.id ?? null : null, randomUUID(), input.projectId, input.planningKey, input.number ?? null,
    input.title, input.body, input.priority, input.dependencies, input.domain ?? null, JSON.stringify(origins), JSON.stringify(approvals),
    input.pinnedAgentId ?? null, input.sourceUrl ?? null, actor.kind === "user" ? actor.id : null, stamp,
    randomUUID(), input.teamId, requesterOf(actor), actor.kind, actor.id ?? null, QUEUE_RAN_DRY, JSON.stringify(messages),
  ]);
  if (!row.prompt) throw new Error(`project ${input.projectId} has no settings`);
  return { prompt: fromJsonRow<PromptModel>("prompt", row.prompt), outbox: row.outbox.map((r) => ({ ...r, writtenAfter })) };
}

const NUMBER_INDEX = "Prompt_projectId_planningKey_number_key";

/** The statement failed on the plan's unique number: pg's error, or Prisma's for a raw query in a transaction. */
export function isNumberTaken(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    const cause = (err.meta?.driverAdapterError as { cause?: { originalCode?: string; originalMessage?: string } } | undefined)?.cause;
    // The index's name is in Postgres's message whatever its language (which translates the rest and its quotes).
    return cause?.originalCode === "23505" && Boolean(cause.originalMessage?.includes(NUMBER_INDEX));
  }
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === "23505" && e.constraint === NUMBER_INDEX;
}
