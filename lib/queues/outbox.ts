import type { PoolClient } from "pg";
import { getPool, type Prisma } from "@/lib/db";
import { getLogger } from "@/lib/log";
import { enqueueMerge, enqueueTick } from "@/lib/queues/producers";

/** A wake-up or work order that must survive Redis being away when its cause commits. */
export type OutboxMessage = { kind: "tick"; projectId: string; reason: string } | { kind: "merge"; runId: string };
interface Row { id: string; message: OutboxMessage }

// The fast path publishes right after the commit; the relay leaves young rows to it.
const RELAY_AFTER_MS = 1000;

function publish(message: OutboxMessage): Promise<void> {
  return message.kind === "tick" ? enqueueTick(message.projectId, message.reason) : enqueueMerge(message.runId);
}

/** Writes messages in the transaction of the change that causes them; hand the result to publishOutbox after the commit. */
export async function recordOutbox(tx: Prisma.TransactionClient, messages: OutboxMessage[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const message of messages) {
    const [row] = await tx.$queryRaw<{ id: bigint }[]>`
      INSERT INTO "Outbox" ("kind", "payload", "createdAt")
      VALUES (${message.kind}, ${JSON.stringify(message)}::jsonb, timezone('UTC', now())) RETURNING id`;
    rows.push({ id: String(row.id), message });
  }
  return rows;
}

/**
 * Publishes committed messages at once and deletes them; never throws. Whatever Redis
 * refused stays in the table for the relay, so no state change hangs on an enqueue. The rows
 * are claimed first (FOR UPDATE SKIP LOCKED, as the relay does): when the caller was slower
 * than the relay's window and the relay already took a row (deleted it, or holds it while it
 * publishes), that row is the relay's to send, so one wake-up is not delivered twice.
 */
export async function publishOutbox(rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  let client: PoolClient | undefined;
  try {
    client = await getPool().connect();
    await client.query("BEGIN");
    const { rows: held } = await client.query<{ id: string }>(
      `SELECT id FROM "Outbox" WHERE id = ANY($1::bigint[]) FOR UPDATE SKIP LOCKED`, [rows.map((r) => r.id)]);
    const mine = new Set(held.map((r) => String(r.id)));
    const sent: string[] = [];
    try {
      for (const row of rows.filter((r) => mine.has(r.id))) {
        await publish(row.message);
        sent.push(row.id);
      }
    } catch (err) {
      getLogger("outbox").warn({ err: (err as Error).message, left: mine.size - sent.length }, "wake-up kept in the outbox until Redis answers");
    }
    if (sent.length) await client.query(`DELETE FROM "Outbox" WHERE id = ANY($1::bigint[])`, [sent]);
    await client.query("COMMIT");
  } catch (err) {
    await client?.query("ROLLBACK").catch(() => {});
    getLogger("outbox").warn({ err: (err as Error).message }, "wake-up kept in the outbox for the relay");
  } finally {
    client?.release();
  }
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
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ id: string; payload: OutboxMessage }>(
      `SELECT id, payload FROM "Outbox" WHERE "createdAt" < timezone('UTC', now()) - make_interval(secs => $1::float8 / 1000)
       ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`, [RELAY_AFTER_MS, limit]);
    for (const row of rows) await publish(row.payload);
    await client.query(`DELETE FROM "Outbox" WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
    await client.query("COMMIT");
    return rows.length;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
