import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import type { Actor } from "@/lib/auth/actor";
import { silentAfterMs } from "@/lib/runners/claim";
import { agentView } from "@/lib/runners/agents";

/** The team's runners for the dashboard: online or not, what they run now, when last heard from. */
export async function listRunners(actor: Actor, now = new Date()) {
  const rows = await getDb().agent.findMany({
    where: { teamId: actor.teamId, ...(actor.projectId ? { projectId: actor.projectId } : {}) },
    include: { runs: { where: { status: { in: ["starting", "running"] } }, select: { id: true, prompt: { select: { number: true, title: true } } } } },
    orderBy: [{ lastSeenAt: { sort: "desc", nulls: "last" } }, { name: "asc" }],
  });
  const silent = silentAfterMs(getEnv().LEASE_TTL_MS);
  return rows.map((a) => ({
    ...agentView(a),
    online: a.status !== "offline" && Boolean(a.lastSeenAt) && now.getTime() - a.lastSeenAt!.getTime() < silent,
    runs: a.runs.map((r) => ({ id: r.id, label: r.prompt ? `P${r.prompt.number} ${r.prompt.title}` : r.id })),
  }));
}
export type RunnerRow = Awaited<ReturnType<typeof listRunners>>[number];
