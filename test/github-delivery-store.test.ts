// The webhook intake's store on a real Postgres: what each delivery's row and work order hold,
// how deliveries arriving together are written (batches, their cap, kept statements), replays
// within a batch, and a row Postgres refuses beside good ones.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { storeDelivery, type DeliveryRow } from "@/lib/github/delivery-store";
import { queriesOf } from "./helpers/statements";

const made: string[] = [];
afterEach(async () => {
  await getDb().webhookDelivery.deleteMany({ where: { deliveryId: { in: made.splice(0) } } });
  await getDb().outbox.deleteMany({ where: { kind: "github" } });
});

function delivery(over: Partial<DeliveryRow> = {}): DeliveryRow {
  const deliveryId = over.deliveryId ?? `store-${randomUUID()}`;
  made.push(deliveryId);
  return { deliveryId, event: "pull_request", action: "opened", projectId: null, status: "received", payload: `{"n":"${deliveryId}"}`, subject: "#7", ...over };
}

/** The intake's store statements a piece of work sent: rows each wrote, and whether it was a kept (named) statement. */
async function storesOf<T>(work: () => Promise<T>): Promise<{ result: T; stores: Array<{ rows: number; kept: boolean }> }> {
  const { result, queries } = await queriesOf(work);
  const stores = queries.filter((q) => q.text.startsWith("WITH stored AS")).map((q) => ({ rows: (q.values?.length ?? 0) / 9, kept: Boolean(q.name) }));
  return { result, stores };
}

const rowOf = (deliveryId: string) => getDb().webhookDelivery.findUniqueOrThrow({ where: { provider_deliveryId: { provider: "github", deliveryId } } });
const orderOf = async (outboxId: string) => (await getDb().outbox.findUniqueOrThrow({ where: { id: BigInt(outboxId) } })).payload;

describe("storing deliveries", () => {
  it("writes each delivery of a batch as given, with a work order for one to process and none for one ignored", async () => {
    const received = delivery({ event: "issue_comment", action: "created", subject: "#3" });
    const ignored = delivery({ event: "star", action: null, status: "ignored", subject: "star" });
    const before = Date.now();
    // The first goes alone, the two behind it together in the next statement.
    const { result, stores } = await storesOf(() => Promise.all([delivery(), received, ignored].map((d) => storeDelivery(d))));
    expect(stores.map((s) => s.rows)).toEqual([1, 2]);

    expect(result[1]).toEqual({ outboxId: expect.any(String) });
    expect(await orderOf(result[1]!.outboxId!)).toEqual({ kind: "github", deliveryId: received.deliveryId });
    expect(await rowOf(received.deliveryId)).toMatchObject({
      provider: "github", event: "issue_comment", action: "created", projectId: null, status: "received", payload: received.payload, subject: "#3", processedAt: null,
    });

    expect(result[2]).toEqual({ outboxId: null });
    const star = await rowOf(ignored.deliveryId);
    expect(star).toMatchObject({ provider: "github", event: "star", action: null, status: "ignored", payload: ignored.payload, subject: "star" });
    expect(star.processedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it("answers a copy of a delivery in its own batch, or in a later one, as a replay", async () => {
    const first = delivery();
    const copy = { ...first };
    const { result } = await storesOf(() => Promise.all([delivery(), first, copy].map((d) => storeDelivery(d))));
    expect(result[1]).toEqual({ outboxId: expect.any(String) });
    expect(result[2]).toBeNull();
    expect(await storeDelivery({ ...first })).toBeNull();
    expect(await getDb().outbox.count({ where: { kind: "github", payload: { path: ["deliveryId"], equals: first.deliveryId } } })).toBe(1);
  });

  it("writes up to 200 deliveries a statement, keeping the statement of a batch up to 32 rows", async () => {
    const burst = async (n: number) => {
      const { result, stores } = await storesOf(() => Promise.all(Array.from({ length: n }, () => storeDelivery(delivery()))));
      expect(result.every((r) => r?.outboxId)).toBe(true);
      return stores;
    };
    // The first goes alone; those that arrive while it is written wait for the next statement.
    expect(await burst(251)).toEqual([{ rows: 1, kept: true }, { rows: 200, kept: false }, { rows: 50, kept: false }]);
    expect(await burst(33)).toEqual([{ rows: 1, kept: true }, { rows: 32, kept: true }]);
    expect(await burst(34)).toEqual([{ rows: 1, kept: true }, { rows: 33, kept: false }]);
  });

  it("stores the good deliveries of a batch Postgres refuses one row of, each alone, and fails only that one", async () => {
    const good = delivery();
    const copy = { ...good };
    const bad = delivery({ event: "bad\u0000event" });
    const after = delivery();
    const { result, stores } = await storesOf(() => Promise.all([delivery(), good, bad, copy, after].map((d) => storeDelivery(d).catch((err: Error) => err))));
    // The batch of four (three deliveries and a copy) refused, then each delivery alone; the copy is a replay.
    expect(stores.map((s) => s.rows)).toEqual([1, 3, 1, 1, 1]);
    expect(result[1]).toEqual({ outboxId: expect.any(String) });
    expect(result[2]).toBeInstanceOf(Error);
    expect((result[2] as Error).message).toMatch(/0x00/);
    expect(result[3]).toBeNull();
    expect(result[4]).toEqual({ outboxId: expect.any(String) });
    expect(await getDb().webhookDelivery.count({ where: { deliveryId: { in: [good.deliveryId, after.deliveryId, bad.deliveryId] } } })).toBe(2);
  });

  it("fails a delivery Postgres refuses when it was written alone, with no second try", async () => {
    const { result, stores } = await storesOf(() => storeDelivery(delivery({ subject: "\u0000" })).catch((err: Error) => err));
    expect((result as Error).message).toMatch(/0x00/);
    expect(stores).toEqual([{ rows: 1, kept: true }]);
  });
});
