import { getDb } from "@/lib/db";
import { decryptSecret } from "@/lib/crypto/secrets";
import { slackClient } from "@/lib/slack/client";
import { handleSlackMessage, type Outcome } from "@/lib/slack/handle";
import type { StoredSlackEvent } from "@/lib/slack/intake";

// A claim older than this belongs to a worker that died mid-event; the retry takes it over.
const RECLAIM_AFTER_MS = 2 * 60_000;

/**
 * Processes one stored Slack event at most once: the row is claimed before any work and marked
 * after; a failure hands it back for the job's retry (what was created stays, once: every piece of
 * work is keyed by message and target).
 */
export async function processSlackDelivery(rowId: string, now = new Date()): Promise<Outcome | null> {
  const db = getDb();
  const claimed = await db.webhookDelivery.updateMany({
    where: {
      id: rowId, provider: "slack",
      OR: [{ status: "received" }, { status: "processing", processedAt: { lt: new Date(now.getTime() - RECLAIM_AFTER_MS) } }],
    },
    data: { status: "processing", processedAt: now },
  });
  if (claimed.count !== 1) {
    // Held by a worker that may have died: the job comes back after the claim has gone stale,
    // rather than ending here and leaving the message unrouted.
    const held = await db.webhookDelivery.findUnique({ where: { id: rowId }, select: { status: true } });
    if (held?.status === "processing") throw new Error("the Slack event is being processed elsewhere; retrying once that claim is stale");
    return null;
  }
  const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: rowId } });
  try {
    const stored = JSON.parse(row.payload) as StoredSlackEvent;
    const conn = await db.slackConnection.findUnique({ where: { id: stored.connectionId } });
    const e = stored.event;
    const outcome: Outcome = conn
      ? await handleSlackMessage(conn, slackClient(decryptSecret(conn.encryptedBotToken)), {
        channel: e.channel!, ts: e.ts!, threadTs: e.thread_ts ?? null, user: e.user!, text: e.text ?? "", type: e.type!,
      })
      : "ignored";
    await db.webhookDelivery.update({ where: { id: row.id }, data: { status: outcome, processedAt: new Date(), error: null } });
    return outcome;
  } catch (err) {
    await db.webhookDelivery.update({ where: { id: row.id }, data: { status: "received", processedAt: null, error: (err as Error).message.slice(0, 2000) } });
    throw err;
  }
}
