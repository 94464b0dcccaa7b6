import { getPool } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { silentAfterMs } from "@/lib/routing/agents";

/**
 * SQL: whether the agent a prompt (alias `q`) is pinned to is gone, in the router's own terms
 * (offline, or silent for longer than `silentAfterMs`). The interval is a number we compute, never input.
 */
export function pinLostSql(alias = "q"): string {
  const ms = Math.floor(silentAfterMs(getEnv().LEASE_TTL_MS));
  return `(${alias}."pinnedAgentId" IS NOT NULL AND ${alias}.status IN ('pending', 'in_progress') AND NOT EXISTS (
    SELECT 1 FROM "Agent" pa WHERE pa.id = ${alias}."pinnedAgentId" AND pa.status <> 'offline'
      AND pa."lastSeenAt" > now() - make_interval(secs => ${ms} / 1000.0)))`;
}

export interface ReleasedPin { promptId: string; number: number; title: string; agentName: string }
export interface PinRelease { released: ReleasedPin[]; localRunIds: string[]; poolRuns: number }

/**
 * A pin lasts as long as its agent is around. Once the agent is gone (the rule the router uses
 * for "offline target → the lead"), its unfinished prompts become the project's ordinary work:
 * the pin is dropped and a run queued for that agent but not picked up yet is handed over, to
 * the spawn workers or to the runner pool as the project's "use runners" says. A run the agent
 * already started stays its own: its lease decides. One statement: a runner that takes the run
 * at the same moment either has it (it is no longer queued) or finds it moved. A pinned prompt's
 * agent is always there to name: deleting an agent unpins its prompts (ON DELETE SET NULL), and a
 * deletion racing this statement either unpinned the prompt first (the row lock then finds it
 * unpinned) or waits for that lock while this statement still sees the agent.
 */
export async function releaseLostPins(projectId: string, useRunners: boolean): Promise<PinRelease> {
  const { rows } = await getPool().query<{ kind: "prompt" | "run"; id: string; number: number | null; title: string | null; agentName: string | null; remote: boolean | null }>(
    `WITH lost AS (
       SELECT q.id, q."pinnedAgentId" AS agent FROM "Prompt" q
       WHERE q."projectId" = $1 AND ${pinLostSql("q")}
       FOR UPDATE OF q
     ), unpinned AS (
       UPDATE "Prompt" p SET "pinnedAgentId" = NULL FROM lost WHERE p.id = lost.id
       RETURNING p.id, p.number, p.title, lost.agent
     ), moved AS (
       UPDATE "Run" r SET "remoteAgentId" = NULL, remote = $2 FROM lost
       WHERE r."promptId" = lost.id AND r.status = 'queued' AND r."remoteAgentId" = lost.agent
       RETURNING r.id, r.remote
     )
     SELECT 'prompt' AS kind, u.id, u.number, u.title, a.name AS "agentName", NULL::boolean AS remote
       FROM unpinned u JOIN "Agent" a ON a.id = u.agent
     UNION ALL SELECT 'run', m.id, NULL, NULL, NULL, m.remote FROM moved m`,
    [projectId, useRunners],
  );
  return {
    released: rows.filter((r) => r.kind === "prompt").map((r) => ({ promptId: r.id, number: r.number!, title: r.title!, agentName: r.agentName! })),
    localRunIds: rows.filter((r) => r.kind === "run" && !r.remote).map((r) => r.id),
    poolRuns: rows.filter((r) => r.kind === "run" && r.remote).length,
  };
}
