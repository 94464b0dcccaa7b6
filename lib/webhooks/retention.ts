import { getPool } from "@/lib/db";

// Deleted a batch at a time: no statement holds many rows' locks or a long transaction.
const BATCH = 5_000;

/**
 * Deletes settled webhook deliveries (GitHub's and Slack's) received more than `retentionMs`
 * ago: GitHub's payloads are 10-25 KB each, and the table would otherwise only grow. A delivery
 * still to be processed is kept whatever its age. Deduplication needs only recent ids: GitHub
 * redelivers deliveries of the last 3 days, Slack retries within minutes. Several workers may
 * sweep at once: each skips the rows another holds. Returns how many rows went.
 */
export async function pruneDeliveries(retentionMs: number, batch = BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await getPool().query(
      `DELETE FROM "WebhookDelivery" WHERE "id" IN (
         SELECT "id" FROM "WebhookDelivery"
         WHERE "receivedAt" < timezone('UTC', now()) - make_interval(secs => $1::float8 / 1000)
           AND "status" NOT IN ('received', 'processing')
         LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [retentionMs, batch],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < batch) return total;
  }
}
