// Webhook deliveries do not pile up forever: settled ones go after the retention period, a batch
// at a time, and one still to be processed stays whatever its age.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { pruneDeliveries } from "@/lib/webhooks/retention";

const DAY = 86_400_000;

describe("pruneDeliveries", () => {
  it("deletes settled GitHub and Slack deliveries older than the retention, in batches, and keeps unsettled and recent ones", async () => {
    const tag = `retention-${randomBytes(4).toString("hex")}`;
    const rows = [
      { name: "old processed", provider: "github", status: "processed", daysAgo: 400 },
      { name: "old ignored", provider: "github", status: "ignored", daysAgo: 401 },
      { name: "old refused", provider: "github", status: "refused", daysAgo: 402 },
      { name: "old slack", provider: "slack", status: "processed", daysAgo: 403 },
      { name: "old failed", provider: "github", status: "failed", daysAgo: 404 },
      { name: "old received", provider: "github", status: "received", daysAgo: 405 },
      { name: "old processing", provider: "github", status: "processing", daysAgo: 406 },
      { name: "within", provider: "github", status: "processed", daysAgo: 398 },
      { name: "new", provider: "slack", status: "ignored", daysAgo: 0 },
    ];
    await getDb().webhookDelivery.createMany({
      data: rows.map((r) => ({
        provider: r.provider, deliveryId: `${tag}-${r.name}`, event: "issue_comment", status: r.status, payload: `{"big":"${"x".repeat(20_000)}"}`,
        receivedAt: new Date(Date.now() - r.daysAgo * DAY),
      })),
    });

    const deleted = await pruneDeliveries(399 * DAY, 2);

    const left = await getDb().webhookDelivery.findMany({ where: { deliveryId: { startsWith: tag } }, select: { deliveryId: true } });
    expect(left.map((r) => r.deliveryId.slice(tag.length + 1)).sort()).toEqual(["new", "old processing", "old received", "within"]);
    // Other tests' deliveries are never this old; five went, over three batches of two.
    expect(deleted).toBe(5);
  });
});
