import { getRedis, readyRedis, redisKey } from "@/lib/redis/connections";

export type ReportedSandboxStatus = { ok: boolean; reason: string | null; at: string };

const key = () => redisKey("sandbox", "status");

/** Workers publish their self-test's verdict so the web pages can say how agents will run. */
export async function publishSandboxStatus(status: { ok: true } | { ok: false; reason: string }): Promise<void> {
  const value: ReportedSandboxStatus = { ok: status.ok, reason: status.ok ? null : status.reason, at: new Date().toISOString() };
  await (await readyRedis(getRedis("producer"))).set(key(), JSON.stringify(value));
}

/** The last worker's verdict, or null when no worker has started yet. */
export async function readSandboxStatus(): Promise<ReportedSandboxStatus | null> {
  const raw = await (await readyRedis(getRedis("producer"))).get(key());
  return raw ? (JSON.parse(raw) as ReportedSandboxStatus) : null;
}
