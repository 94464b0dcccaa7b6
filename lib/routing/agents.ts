import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import type { RoutableAgent } from "@/lib/routing/route";

// An agent silent for longer than this has vanished: its offers and assignments are released.
export const silentAfterMs = (leaseTtlMs: number) => 3 * leaseTtlMs;

/** The runner agents a request for a project may go to, each online or not as of `now`. */
export async function routableAgents(teamId: string, projectId: string, now: number): Promise<RoutableAgent[]> {
  const silent = silentAfterMs(getEnv().LEASE_TTL_MS);
  const rows = await getDb().agent.findMany({ where: { teamId, OR: [{ projectId: null }, { projectId }] }, orderBy: { createdAt: "asc" } });
  return rows.map((a) => ({ id: a.id, name: a.name, role: a.role, online: a.status !== "offline" && Boolean(a.lastSeenAt) && now - a.lastSeenAt!.getTime() < silent }));
}
