import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/log";

/**
 * Threads from before read receipts have every turn `sent`: without this, the first start would
 * wake a lead run for each of them at once. Their turns become evaluated once (the threads are
 * then stamped), and the count is logged; later starts find nothing to do.
 */
export async function migrateReceipts(): Promise<number> {
  const count = await getDb().$transaction(async (tx) => {
    const n = await tx.$executeRaw`
      UPDATE "Turn" t SET status = 'evaluated', "evaluatedAt" = now()
      FROM "Thread" th WHERE t."threadId" = th.id AND th."receiptsSince" IS NULL AND t.status <> 'evaluated'`;
    await tx.$executeRaw`UPDATE "Thread" SET "receiptsSince" = now() WHERE "receiptsSince" IS NULL`;
    return n;
  });
  getLogger("lead").info({ turns: count }, "read receipts start-up migration: older turns marked evaluated");
  return count;
}
