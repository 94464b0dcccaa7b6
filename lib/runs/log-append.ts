import { getDb } from "@/lib/db";
import { getRedis } from "@/lib/redis/connections";
import { RUN_LOG_STREAM_MAXLEN, runLogStreamKey } from "@/lib/events/streams";
import { RUN_LOG_CAP_BYTES } from "@/lib/runs/log-sink";

/**
 * Stores one numbered chunk of a remote run's log for its holder. Idempotent by sequence
 * number, so a runner that lost the answer sends the chunk again after a network cut and
 * nothing is written twice. Null when the holder no longer holds the live run (nothing written).
 */
export async function appendRunLog(runId: string, holder: string, seq: number, lines: string[]): Promise<{ stored: boolean } | null> {
  const content = lines.join("\n");
  const bytes = Buffer.byteLength(content) + 1;
  const stored = await getDb().$transaction(async (tx) => {
    const [run] = await tx.$queryRaw<{ logBytes: number }[]>`
      SELECT "logBytes" FROM "Run" WHERE id = ${runId} AND "workerId" = ${holder} AND status IN ('starting', 'running') FOR UPDATE`;
    if (!run) return null;
    if (run.logBytes + bytes > RUN_LOG_CAP_BYTES) {
      await tx.run.update({ where: { id: runId }, data: { logTruncated: true } });
      return false;
    }
    const inserted = await tx.$executeRaw`
      INSERT INTO "RunLog" ("runId", seq, content, "createdAt") VALUES (${runId}, ${seq}, ${content}, now())
      ON CONFLICT ("runId", seq) DO NOTHING`;
    if (inserted === 1) await tx.run.update({ where: { id: runId }, data: { logBytes: { increment: bytes } } });
    return inserted === 1;
  });
  if (stored === null) return null;
  if (stored) {
    await getRedis("producer")
      .xadd(runLogStreamKey(runId), "MAXLEN", "~", String(RUN_LOG_STREAM_MAXLEN), "*", "seq", String(seq), "l", content)
      .catch(() => null);
  }
  return { stored };
}
