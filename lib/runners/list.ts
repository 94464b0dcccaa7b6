import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import type { Actor } from "@/lib/auth/actor";
import { silentAfterMs } from "@/lib/routing/agents";
import { agentView, runnerClis } from "@/lib/runners/agents";

/** The team's runners for the dashboard: online or not, what they run now, when last heard from. */
export async function listRunners(actor: Actor, now = new Date()) {
  const db = getDb();
  const rows = await db.agent.findMany({
    where: { teamId: actor.teamId, ...(actor.projectId ? { projectId: actor.projectId } : {}) },
    include: { runs: { where: { status: { in: ["starting", "running"] } }, select: { id: true, prompt: { select: { number: true, title: true } } } } },
    orderBy: [{ lastSeenAt: { sort: "desc", nulls: "last" } }, { name: "asc" }],
  });
  const silent = silentAfterMs(getEnv().LEASE_TTL_MS);
  const tokenIds = [...new Set(rows.map((a) => a.tokenId).filter((id): id is string => Boolean(id)))];
  const tokens = await db.apiToken.findMany({ where: { id: { in: tokenIds }, teamId: actor.teamId }, select: { id: true, name: true, revokedAt: true, expiresAt: true } });
  return rows.map((a) => ({
    ...agentView(a),
    token: ((t) => t && { id: t.id, name: t.name, active: !t.revokedAt && (!t.expiresAt || t.expiresAt > now) })(tokens.find((t) => t.id === a.tokenId)),
    online: a.status !== "offline" && Boolean(a.lastSeenAt) && now.getTime() - a.lastSeenAt!.getTime() < silent,
    runs: a.runs.map((r) => ({ id: r.id, label: r.prompt ? `#${r.prompt.number} ${r.prompt.title}` : r.id })),
  }));
}
export type RunnerRow = Awaited<ReturnType<typeof listRunners>>[number];

/** Prompts whose run waits in the runners' pool: what an operator can offer to one runner. */
export async function listPromptsAwaitingRunner(actor: Actor) {
  const runs = await getDb().run.findMany({
    where: { remote: true, status: "queued", remoteAgentId: null, promptId: { not: null }, project: { teamId: actor.teamId, archivedAt: null, ...(actor.projectId ? { id: actor.projectId } : {}) } },
    select: { prompt: { select: { id: true, number: true, title: true } }, project: { select: { name: true } } },
    orderBy: { queuedAt: "asc" },
    take: 100,
  });
  return runs.map((r) => ({ id: r.prompt!.id, label: `${r.project.name} · #${r.prompt!.number} ${r.prompt!.title}` }));
}

/** Each of the team's runners with the agent CLIs it reported at registration, for the Agents page. */
export async function listRunnerClis(teamId: string, now = new Date()) {
  const rows = await getDb().agent.findMany({ where: { teamId }, select: { id: true, name: true, status: true, lastSeenAt: true, clis: true }, orderBy: { name: "asc" } });
  const silent = silentAfterMs(getEnv().LEASE_TTL_MS);
  return rows.map((a) => ({
    id: a.id, name: a.name, clis: runnerClis(a),
    online: a.status !== "offline" && Boolean(a.lastSeenAt) && now.getTime() - a.lastSeenAt!.getTime() < silent,
  }));
}
