import { publishOutbox, type OutboxRow } from "@/lib/queues/outbox";

// A burst of webhook deliveries, each publishing its own work order, would cost each one a
// claim, a delete and a commit (four Postgres round trips) besides its enqueue: orders arriving
// while one publish is in flight go together in the next, one transaction per batch. One at a
// time they go at once, with no added wait.
const MAX_BATCH = 200;
type Waiter = { row: OutboxRow; done: () => void };
let waiting: Waiter[] = [];
let publishing = false;

async function drain(): Promise<void> {
  publishing = true;
  while (waiting.length) {
    const batch = waiting.slice(0, MAX_BATCH);
    waiting = waiting.slice(batch.length);
    // Never throws: whatever is not sent stays in the outbox for the relay.
    await publishOutbox(batch.map((w) => w.row), { concurrent: true });
    for (const w of batch) w.done();
  }
  publishing = false;
}

/** Publishes independent committed messages (no order between them) in batches; never throws. */
export function publishOutboxBatched(row: OutboxRow): Promise<void> {
  return new Promise((done) => {
    waiting.push({ row, done });
    if (!publishing) void drain();
  });
}
