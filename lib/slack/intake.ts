import { LRUCache } from "lru-cache";
import { randomUUID } from "node:crypto";
import { getDb, getPool } from "@/lib/db";
import { prepared } from "@/lib/db/prepared";
import { publishOutboxBatched } from "@/lib/queues";
import { decryptSecret } from "@/lib/crypto/secrets";
import { signatureProblem } from "@/lib/slack/signature";

export type SlackAnswer = { status: 200 | 400 | 401; body: Record<string, unknown> };
type SlackMessageEvent = { type?: string; subtype?: string; bot_id?: string; user?: string; channel?: string; ts?: string; thread_ts?: string; text?: string };

/** The stored payload of a Slack event: what the slack queue needs, nothing else. */
export interface StoredSlackEvent { connectionId: string; eventId: string; event: SlackMessageEvent }

const refused = (message: string): SlackAnswer => ({ status: 401, body: { error: { code: "unauthenticated", message } } });
const REFUSALS = { missing: "needs X-Slack-Request-Timestamp and X-Slack-Signature", stale: "the request timestamp is more than 5 minutes away", mismatch: "signature does not match" };

// Subtypes that are still a person writing; every other one (edits, deletions, joins, bots) is not a request.
const PERSON_SUBTYPES = new Set([undefined, "file_share", "thread_broadcast"]);

// One lookup and decryption per connection per 10 s, not per event. Bounded: the ids come from
// unauthenticated requests.
type Verifier = { secret: string; botUserId: string };
const secrets = new LRUCache<string, { at: number; value: Promise<Verifier | null> }>({ max: 1000 });
function verifier(connectionId: string, now = Date.now()): Promise<Verifier | null> {
  const hit = secrets.get(connectionId);
  if (hit && now - hit.at < 10_000) return hit.value;
  const value = getDb().slackConnection.findUnique({ where: { id: connectionId }, select: { encryptedSigningSecret: true, botUserId: true } })
    .then((row) => (row ? { secret: decryptSecret(row.encryptedSigningSecret), botUserId: row.botUserId } : null));
  secrets.set(connectionId, { at: now, value });
  value.catch(() => secrets.delete(connectionId));
  return value;
}
export const forgetSigningSecrets = () => secrets.clear();

function parse(raw: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

const isRequest = (e: SlackMessageEvent | undefined, botUserId?: string): e is SlackMessageEvent =>
  Boolean(e && (e.type === "message" || e.type === "app_mention") && PERSON_SUBTYPES.has(e.subtype) && !e.bot_id && e.user && e.user !== botUserId && e.channel && e.ts);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// One statement stores the message once (a repeat conflicts and records nothing) and its work
// order in the outbox: one round trip, so the answer is not kept waiting on a transaction; kept
// by each connection (planned once, not per message).
async function store(deliveryId: string, event: string, eventId: string, payload: StoredSlackEvent) {
  const { rows } = await getPool().query<{ rowId: string; outboxId: string }>(prepared(
    `WITH stored AS (
       INSERT INTO "WebhookDelivery" ("id", "provider", "deliveryId", "event", "action", "status", "payload")
       VALUES ($1, 'slack', $2, $3, $4, 'received', $5) ON CONFLICT ("provider", "deliveryId") DO NOTHING RETURNING id
     ), orders AS (
       INSERT INTO "Outbox" ("kind", "payload", "createdAt")
       SELECT 'slack', jsonb_build_object('kind', 'slack', 'deliveryRowId', id), timezone('UTC', now()) FROM stored RETURNING id
     )
     SELECT s.id AS "rowId", o.id::text AS "outboxId" FROM stored s CROSS JOIN orders o`,
    [randomUUID(), deliveryId, event.slice(0, 100), eventId, JSON.stringify(payload)],
  ));
  return rows[0] ?? null;
}

/**
 * Slack's Events API for one connection. The signature and its timestamp are checked before
 * anything is read or stored; a message is stored once per (channel, ts), whichever event or
 * retry carried it (`message` and `app_mention` both arrive for one mention; X-Slack-Retry-Num
 * repeats the event id), with its work order in the same transaction: the answer is 200 in
 * milliseconds and the routing happens in the slack queue.
 */
export async function receiveSlackEvent(connectionId: string, headers: Pick<Headers, "get">, raw: string, now = Date.now()): Promise<SlackAnswer> {
  const known = /^[a-z0-9]{1,40}$/i.test(connectionId) ? await verifier(connectionId, now) : null;
  const problem = signatureProblem(known ? [known.secret] : [], headers.get("x-slack-request-timestamp"), headers.get("x-slack-signature"), raw, now);
  if (problem) return refused(REFUSALS[problem]);
  const body = parse(raw);
  if (!body) return { status: 400, body: { error: { code: "invalid", message: "the body must be a JSON object" } } };
  if (body.type === "url_verification") return { status: 200, body: { challenge: String(body.challenge ?? "") } };
  const event = body.event as SlackMessageEvent | undefined;
  const eventId = typeof body.event_id === "string" ? body.event_id.slice(0, 100) : null;
  if (body.type !== "event_callback" || !eventId || !isRequest(event, known!.botUserId)) return { status: 200, body: { ignored: true } };

  const deliveryId = `${connectionId}:${event.channel!.slice(0, 40)}:${event.ts!.slice(0, 40)}`;
  // A message's text becomes a prompt's, and Postgres's text refuses NUL (lone surrogates are no
  // UTF-8): a signed message may still carry them, and they go.
  const text = typeof event.text === "string" ? event.text.replace(/\u0000/g, "").replace(LONE_SURROGATE, "\uFFFD") : "";
  const stored: StoredSlackEvent = { connectionId, eventId, event: { type: event.type, subtype: event.subtype, user: event.user, channel: event.channel, ts: event.ts, thread_ts: event.thread_ts, text } };
  const outbox = await store(deliveryId, event.type!, eventId, stored);
  if (!outbox) return { status: 200, body: { duplicate: true } };
  // Never throws: with Redis away the work order waits in the outbox for the relay.
  await publishOutboxBatched({ id: outbox.outboxId, message: { kind: "slack", deliveryRowId: outbox.rowId } });
  return { status: 200, body: { accepted: true } };
}
