import { getPool } from "@/lib/db";
import { storedPayload } from "@/lib/github/delivery-store";
import { dispatch, type Outcome, type Payload, type ProjectView } from "@/lib/github/delivery-dispatch";

export type { Outcome } from "@/lib/github/delivery-dispatch";

// A claim older than this belongs to a worker that died mid-delivery; the retry takes it over.
export const RECLAIM_AFTER_MS = 2 * 60_000;
// Subjects (a pull request, an issue, a commit) processed at once within a batch.
const PARALLEL_SUBJECTS = 8;
// A batch carries payloads up to this stored (compressed) size; a larger one (a push of many
// commits, up to GitHub's 25 MB) is read alone when its turn comes, so a batch of 200 stays small in memory.
export const BATCHED_PAYLOAD_BYTES = 16 * 1024;

type ClaimedRow = {
  id: string; deliveryId: string; event: string; projectId: string | null; payload: string | null; subject: string;
  project: (Omit<ProjectView, "githubConnection"> & { archivedAt: string | null }) | null;
  connection: ProjectView["githubConnection"];
};

// The claim and everything processing reads (the delivery, its project, the project's
// connection) are one statement for the whole batch: the worker spends its CPU on the work,
// not on a round trip and a query compilation per delivery.
async function claim(deliveryIds: string[]): Promise<ClaimedRow[]> {
  const { rows } = await getPool().query<ClaimedRow>(
    `WITH claimed AS (
       UPDATE "WebhookDelivery" SET "status" = 'processing', "processedAt" = timezone('UTC', now())
       WHERE "provider" = 'github' AND "deliveryId" = ANY($1::text[]) AND ("status" = 'received'
         OR ("status" = 'processing' AND "processedAt" < timezone('UTC', now()) - make_interval(secs => $2::float8 / 1000)))
       RETURNING "id", "deliveryId", "event", "projectId", CASE WHEN pg_column_size("payload") <= $3 THEN "payload" END AS "payload",
         -- What the delivery is about (taken at intake: deliverySubject): deliveries about one
         -- thing keep their order (a review after the push it reviews); different things in one
         -- batch go side by side.
         "subject"
     )
     SELECT d.*,
       CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id, 'teamId', p."teamId", 'planningKey', p."planningKey", 'name', p.name,
         'baseBranch', p."baseBranch", 'githubConnectionId', p."githubConnectionId", 'archivedAt', p."archivedAt") END AS project,
       CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'botLogin', c."botLogin", 'appId', c."appId", 'mentionLogin', c."mentionLogin") END AS connection
     FROM claimed d LEFT JOIN "Project" p ON p.id = d."projectId" LEFT JOIN "GithubConnection" c ON c.id = p."githubConnectionId"`,
    [deliveryIds, RECLAIM_AFTER_MS, BATCHED_PAYLOAD_BYTES],
  );
  // The job lists its deliveries in the order they arrived: they are processed in that order.
  const order = new Map(deliveryIds.map((id, i) => [id, i]));
  return rows.sort((a, b) => order.get(a.deliveryId)! - order.get(b.deliveryId)!);
}

type Settled = { id: string; status: Outcome | "received"; error: string | null };

const settle = (rows: Settled[]) => rows.length === 0 ? Promise.resolve() : getPool().query(
  `UPDATE "WebhookDelivery" d SET "status" = s.status, "error" = s.error,
     "processedAt" = CASE WHEN s.status = 'received' THEN NULL ELSE timezone('UTC', now()) END
   FROM unnest($1::text[], $2::text[], $3::text[]) AS s(id, status, error) WHERE d.id = s.id`,
  [rows.map((r) => r.id), rows.map((r) => r.status), rows.map((r) => r.error)],
).then(() => undefined);

function payloadOf(row: ClaimedRow): Payload | null {
  try {
    return row.payload === null ? null : (storedPayload(row.payload) as Payload);
  } catch {
    return null;
  }
}

// A payload left out of the batch (too large), read when it is processed.
async function fullPayload(row: ClaimedRow): Promise<Payload> {
  if (row.payload !== null) return storedPayload(row.payload) as Payload;
  const { rows } = await getPool().query<{ payload: string }>(`SELECT "payload" FROM "WebhookDelivery" WHERE "id" = $1`, [row.id]);
  return storedPayload(rows[0].payload) as Payload;
}

/** Outcomes of the deliveries a batch claimed, by delivery id in the job's order; those it did not claim are absent. */
export type BatchOutcomes = Map<string, Outcome>;

/**
 * Processes stored deliveries at most once each: the rows are claimed before any work (one
 * statement for the batch), their outcomes written after (one statement). A failure hands its
 * delivery back (status received, with the error), and the later deliveries about the same
 * thing with it, untried, so they keep their order on the job's retry; the batch then throws
 * the first failure as it was thrown (a rate limit defers the job). Nothing is lost, and a retry takes only what was handed back.
 */
export async function processDeliveries(deliveryIds: string[]): Promise<BatchOutcomes> {
  const rows = await claim(deliveryIds);
  const subjects = new Map<string, { row: ClaimedRow; payload: Payload | null }[]>();
  for (const row of rows) {
    const payload = payloadOf(row);
    const key = `${row.projectId}:${row.subject}`;
    subjects.set(key, [...(subjects.get(key) ?? []), { row, payload }]);
  }
  const settled: Settled[] = [];
  const outcomes: BatchOutcomes = new Map();
  const failures: Error[] = [];
  const processSubject = async (items: { row: ClaimedRow; payload: Payload | null }[]) => {
    for (const [i, { row, payload }] of items.entries()) {
      const { project, connection } = row;
      try {
        const outcome = project && !project.archivedAt
          ? await dispatch(row.event, payload ?? (await fullPayload(row)), { ...project, githubConnection: connection })
          : "ignored";
        settled.push({ id: row.id, status: outcome, error: null });
        outcomes.set(row.deliveryId, outcome);
      } catch (err) {
        const message = (err as Error).message.slice(0, 2000);
        const behind = items.slice(i + 1);
        settled.push({ id: row.id, status: "received", error: message });
        for (const later of behind) settled.push({ id: later.row.id, status: "received", error: `waits for delivery ${row.deliveryId}, which failed: ${message}`.slice(0, 2000) });
        failures.push(err as Error);
        return;
      }
    }
  };
  const queue = [...subjects.values()];
  await Promise.all(Array.from({ length: Math.min(PARALLEL_SUBJECTS, queue.length) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await processSubject(next);
  }));
  await settle(settled);
  if (failures.length) throw failures[0];
  // Without a failure every claimed delivery has its outcome: the map lists them in the job's order.
  return new Map(rows.map((r) => [r.deliveryId, outcomes.get(r.deliveryId)!]));
}

/** One stored delivery (a batch of one); null when it was not claimed. Throws its failure. */
export async function processDelivery(deliveryId: string): Promise<Outcome | null> {
  return (await processDeliveries([deliveryId])).get(deliveryId) ?? null;
}
