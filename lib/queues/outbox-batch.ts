import { getPool } from "@/lib/db";
import { getLogger } from "@/lib/log";
import { producerReady, publishTogether, type OutboxRow } from "@/lib/queues/outbox";
import { enqueueGithub, enqueueGithubBatch } from "@/lib/queues/github";
import { MAX_DELIVERY_BATCH } from "@/lib/queues/names";

// A burst of webhook deliveries, each publishing its own work order: orders arriving while one
// publish is in flight go together in the next, with no added wait one at a time. These orders
// need no claim before they are sent (publishOutbox's transaction of four round trips): the
// GitHub deliveries among them are one job (a lone one keeps its delivery's job id), and the
// job's consumer claims each delivery's row, so the relay sending an order too costs at most
// a job that finds nothing to do. Sent, they are deleted in one statement, after the answers.
const MAX_BATCH = MAX_DELIVERY_BATCH;
type Waiter = { row: OutboxRow; done: () => void };
let waiting: Waiter[] = [];
let publishing = false;

async function publishDeliveries(rows: OutboxRow[], sent: string[]): Promise<void> {
  const deliveries = rows.flatMap((r) => (r.message.kind === "github" ? [{ id: r.id, deliveryId: r.message.deliveryId }] : []));
  const others = rows.filter((r) => r.message.kind !== "github");
  // One delivery alone keeps its own job id, which the relay's copy of its order shares.
  const batch = deliveries.length === 0 ? Promise.resolve()
    : (deliveries.length === 1 ? enqueueGithub(deliveries[0].deliveryId) : enqueueGithubBatch(deliveries[0].id, deliveries.map((d) => d.deliveryId)))
      .then(() => { sent.push(...deliveries.map((d) => d.id)); });
  const [github, rest] = await Promise.allSettled([batch, publishTogether(others, sent)]);
  if (github.status === "rejected") throw github.reason;
  if (rest.status === "rejected") throw rest.reason;
}

async function publish(rows: OutboxRow[]): Promise<void> {
  const sent: string[] = [];
  try {
    await producerReady({ failFast: true });
    await publishDeliveries(rows, sent);
  } catch (err) {
    getLogger("outbox").warn({ err: (err as Error).message, left: rows.length - sent.length }, "work order kept in the outbox until Redis answers");
  }
  if (sent.length) deleteSent(sent);
}

// Sent orders are deleted behind the answers rather than before them: the delivery is stored
// and its job queued once the publish returns, so its 202 need not wait a Postgres round trip
// more, and orders sent while one DELETE is in flight go together in the next.
let unsent: string[] = [];
let deleting: Promise<void> | null = null;

function deleteSent(ids: string[]): void {
  unsent.push(...ids);
  deleting ??= (async () => {
    while (unsent.length) {
      const batch = unsent;
      unsent = [];
      // Left undeleted, a sent order is only sent again by the relay: harmless, as above.
      await getPool().query(`DELETE FROM "Outbox" WHERE id = ANY($1::bigint[])`, [batch])
        .catch((err: Error) => getLogger("outbox").warn({ err: err.message, left: batch.length }, "sent work orders left for the relay"));
    }
    deleting = null;
  })();
}

/** Resolves once the sent orders published so far are deleted (or left to the relay): before the pool closes. */
export const sentOrdersDeleted = (): Promise<void> => deleting ?? Promise.resolve();

async function drain(): Promise<void> {
  publishing = true;
  while (waiting.length) {
    const batch = waiting.slice(0, MAX_BATCH);
    waiting = waiting.slice(batch.length);
    // Never throws: whatever is not sent stays in the outbox for the relay.
    await publish(batch.map((w) => w.row));
    for (const w of batch) w.done();
  }
  publishing = false;
}

/**
 * Publishes committed webhook work orders (github, slack: consumed at most once by their own
 * key) in batches, resolving once they are queued (their rows are deleted behind); never throws.
 */
export function publishOutboxBatched(row: OutboxRow): Promise<void> {
  return new Promise((done) => {
    waiting.push({ row, done });
    if (!publishing) void drain();
  });
}
