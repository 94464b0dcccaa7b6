import type { PoolClient } from "pg";
import { z } from "zod";
import { getDb, getPool, type Prisma } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/log";
import { isDatabaseUnreachable } from "@/lib/db/unreachable";
import { getRedis, PRODUCER_OPEN_WAIT_MS, readyProducer, readyRedis } from "@/lib/redis/connections";
import { enqueueMerge, enqueueSpawn, enqueueTick, removeTickScheduler, upsertTickScheduler } from "@/lib/queues/producers";
import { tickPeriodMs } from "@/lib/queues/tick-period";
import { enqueueGithub, enqueuePullRequestRecheck, enqueueSlack } from "@/lib/queues/github";

// Built by each relay that found due rows (microseconds), not when the module loads: what the
// relay accepts is then what its tests see, a change to it included.
const outboxMessage = (id = z.string().min(1)) => z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("tick"), projectId: id, reason: z.string() }),
  z.object({ kind: z.literal("merge"), runId: id }),
  z.object({ kind: z.literal("spawn"), runId: id }),
  // The project's periodic tick follows its state: on while it is active and its loop not stopped.
  // `nudged`: a nudge of the project goes with it, so the periodic tick starts one period later
  // (started at once, it ran beside the nudge's tick, and one of the two found the other's lock).
  z.object({ kind: z.literal("schedule"), projectId: id, nudged: z.boolean().optional() }),
  z.object({ kind: z.literal("github"), deliveryId: id }),
  z.object({ kind: z.literal("recheck"), pullRequestId: id }),
  z.object({ kind: z.literal("slack"), deliveryRowId: id }),
]);

/** A wake-up or work order that must survive Redis being away when its cause commits. */
export type OutboxMessage = z.infer<ReturnType<typeof outboxMessage>>;
export interface OutboxRow {
  id: string;
  message: OutboxMessage;
  /**
   * `performance.now()` read before the statement that wrote the row was sent, when the writer
   * knows it: the row's `createdAt` (Postgres's clock while the statement ran) is no earlier.
   */
  writtenAfter?: number;
}

// The fast path publishes right after the commit; the relay leaves young rows to it.
const RELAY_AFTER_MS = 1000;
// A row its writer stamped less than this long ago, by its own clock, cannot be the relay's yet
// (half the relay's window: room for the two clocks' rates to differ).
export const FRESH_MS = RELAY_AFTER_MS / 2;

// A queue first used while Redis is away would wait for it forever (BullMQ waits for its
// connection to be ready): a request must not hang on it. A connection known to be down
// fails at once, one still opening (a process just started) gets a moment; whatever is not
// sent waits in the table for the relay.
export async function producerReady(opts: { failFast: boolean }): Promise<void> {
  if (opts.failFast) await readyProducer();
  else await readyRedis(getRedis("producer"), PRODUCER_OPEN_WAIT_MS);
}

// The scheduler is read from the project's current state, not from the message, so an
// old message relayed late cannot bring back a tick a later change removed. Its period is the
// project's interval, doubled by the idle backoff (lib/queues/tick-period.ts).
export async function syncTickScheduler(projectId: string, opts: { startNext?: "now" | "after_period" } = {}): Promise<void> {
  const { rows } = await getPool().query<{ base: number; level: number }>(
    `SELECT s."tickIntervalMs" AS base, l."tickBackoff" AS level FROM "Project" p
       JOIN "ProjectSettings" s ON s."projectId" = p.id JOIN "LoopState" l ON l."projectId" = p.id
     WHERE p.id = $1 AND p."archivedAt" IS NULL AND l.mode <> 'stopped'`, [projectId]);
  if (!rows.length) return removeTickScheduler(projectId);
  const every = tickPeriodMs(rows[0].base, rows[0].level);
  await upsertTickScheduler(projectId, every, opts.startNext === "after_period" ? { startInMs: every } : {});
}

function publish(message: OutboxMessage): Promise<void> {
  switch (message.kind) {
    case "tick": return enqueueTick(message.projectId, message.reason);
    case "merge": return enqueueMerge(message.runId);
    case "spawn": return enqueueSpawn(message.runId);
    case "schedule": return syncTickScheduler(message.projectId, { startNext: message.nudged && getEnv().NUDGES !== "off" ? "after_period" : "now" });
    case "github": return enqueueGithub(message.deliveryId);
    case "recheck": return enqueuePullRequestRecheck(message.pullRequestId);
    case "slack": return enqueueSlack(message.deliveryRowId);
  }
}

// Independent messages (one per webhook delivery) go out together: the Redis commands share
// round trips, and what was sent is deleted even when a neighbour failed.
export async function publishTogether(rows: OutboxRow[], sent: string[]): Promise<void> {
  const results = await Promise.allSettled(rows.map((r) => publish(r.message)));
  results.forEach((r, i) => { if (r.status === "fulfilled") sent.push(rows[i].id); });
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/** Writes messages in the transaction of the change that causes them; hand the result to publishOutbox after the commit. */
export async function recordOutbox(tx: Prisma.TransactionClient, messages: OutboxMessage[]): Promise<OutboxRow[]> {
  const rows: OutboxRow[] = [];
  for (const message of messages) {
    // The statement's own clock, not the transaction's start: the row is no older than its stamp.
    const writtenAfter = performance.now();
    const [row] = await tx.$queryRaw<{ id: bigint }[]>`
      INSERT INTO "Outbox" ("kind", "payload", "createdAt")
      VALUES (${message.kind}, ${JSON.stringify(message)}::jsonb, timezone('UTC', clock_timestamp())) RETURNING id`;
    rows.push({ id: String(row.id), message, writtenAfter });
  }
  return rows;
}

/**
 * Publishes committed messages at once and deletes them; never throws. Whatever Redis
 * refused stays in the table for the relay, so no state change hangs on an enqueue.
 *
 * Rows written a moment ago (stamped, under FRESH_MS by the writer's clock) cannot have been
 * due to any relay yet: they are sent with no claim first, and deleted after, skipping any a
 * relay holds by then (it sends and deletes those itself). A relay that took one meanwhile, or
 * a DELETE that failed, can only repeat a wake-up, which every consumer takes at least once
 * anyway (a tick nudge is a tick more; a spawn or merge job finds nothing left to do). This
 * keeps a connection, BEGIN and a locking SELECT off the path of every prompt's nudge.
 * Older rows, or rows of unknown age, are claimed first (FOR UPDATE SKIP LOCKED, as the relay
 * does): when the caller was slower than the relay's window and the relay already took a row
 * (deleted it, or holds it while it publishes), that row is the relay's to send, so one
 * wake-up is not delivered twice.
 */
export async function publishOutbox(rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  const now = performance.now();
  // A row of unknown age counts as old.
  const fresh = rows.filter((r) => now - (r.writtenAfter ?? -Infinity) < FRESH_MS);
  await Promise.all([publishFresh(fresh), publishClaimed(rows.filter((r) => !fresh.includes(r)))]);
}

async function publishFresh(rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  const sent: string[] = [];
  try {
    await producerReady({ failFast: true });
    await publishTogether(rows, sent);
  } catch (err) {
    getLogger("outbox").warn({ err: (err as Error).message, left: rows.length - sent.length }, "wake-up kept in the outbox until Redis answers");
  }
  if (sent.length) await getPool().query(
    `DELETE FROM "Outbox" WHERE id IN (SELECT id FROM "Outbox" WHERE id = ANY($1::bigint[]) FOR UPDATE SKIP LOCKED)`, [sent],
  ).catch((err: Error) => getLogger("outbox").warn({ err: err.message, left: sent.length }, "sent wake-up left for the relay"));
}

async function publishClaimed(rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  let client: PoolClient | undefined;
  let failure: unknown;
  try {
    client = await getPool().connect();
    await client.query("BEGIN");
    const { rows: held } = await client.query<{ id: string }>(
      `SELECT id FROM "Outbox" WHERE id = ANY($1::bigint[]) FOR UPDATE SKIP LOCKED`, [rows.map((r) => r.id)]);
    const mine = new Set(held.map((r) => String(r.id)));
    const sent: string[] = [];
    try {
      if (mine.size) await producerReady({ failFast: true });
      // Together, not one after another: a prompt's nudge (its tick) went out only after the
      // project's schedule was synced (a query and a scheduler upsert), on every reaction's path.
      await publishTogether(rows.filter((r) => mine.has(r.id)), sent);
    } catch (err) {
      getLogger("outbox").warn({ err: (err as Error).message, left: mine.size - sent.length }, "wake-up kept in the outbox until Redis answers");
    }
    if (sent.length) await client.query(`DELETE FROM "Outbox" WHERE id = ANY($1::bigint[])`, [sent]);
    await client.query("COMMIT");
  } catch (err) {
    failure = err;
    await client?.query("ROLLBACK").catch(() => {});
    getLogger("outbox").warn({ err: (err as Error).message }, "wake-up kept in the outbox for the relay");
  } finally {
    // A connection Postgres dropped is discarded, not pooled again.
    client?.release(isDatabaseUnreachable(failure) ? (failure as Error) : undefined);
  }
}

/** Messages with no state change of their own (a forced tick): committed, then published. */
export async function sendViaOutbox(messages: OutboxMessage[]): Promise<void> {
  await publishOutbox(await getDb().$transaction((tx) => recordOutbox(tx, messages)));
}

/**
 * The relay every worker runs: claims rows the fast path left (FOR UPDATE SKIP LOCKED, so
 * workers never take the same row), publishes them, deletes them in the same transaction.
 * A failed publish rolls the claim back; what was already published is sent again later
 * (at least once: every consumer is idempotent). Returns how many were relayed.
 */
export async function relayOutbox(limit = 100): Promise<number> {
  const pool = getPool();
  const { rows: due } = await pool.query(
    `SELECT 1 FROM "Outbox" WHERE "createdAt" < timezone('UTC', now()) - make_interval(secs => $1::float8 / 1000) LIMIT 1`, [RELAY_AFTER_MS]);
  if (due.length === 0) return 0;
  const client = await pool.connect();
  let failure: unknown;
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ id: string; payload: unknown }>(
      `SELECT id, payload FROM "Outbox" WHERE "createdAt" < timezone('UTC', now()) - make_interval(secs => $1::float8 / 1000)
       ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`, [RELAY_AFTER_MS, limit]);
    // A row no message reads (written by another version, or by hand) can never be published:
    // it goes, said in the log, instead of failing every relay before the rows behind it.
    const schema = outboxMessage();
    const readable: OutboxMessage[] = [];
    const unreadable: { id: string; payload: unknown }[] = [];
    for (const row of rows) {
      const read = schema.safeParse(row.payload);
      if (read.success) readable.push(read.data);
      else unreadable.push({ id: String(row.id), payload: row.payload });
    }
    if (unreadable.length) getLogger("outbox").error({ rows: unreadable }, "outbox rows that are no message dropped");
    // The relay runs in the background: it may wait for a connection coming back.
    if (readable.length) await producerReady({ failFast: false });
    for (const message of readable) await publish(message);
    await client.query(`DELETE FROM "Outbox" WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
    await client.query("COMMIT");
    return readable.length;
  } catch (err) {
    failure = err;
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    // A connection Postgres dropped under the relay is discarded, not pooled again.
    client.release(isDatabaseUnreachable(failure) ? (failure as Error) : undefined);
  }
}
