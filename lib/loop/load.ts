import { getPool, prepared, type LoopMode, type PromptStatus, type RunKind, type RunStatus } from "@/lib/db";
import { LIVE_RUN_STATUSES_SQL } from "@/lib/run-statuses";
import { pinLostSql } from "@/lib/runs/pins";

// A tick reads everything in one statement (and, with the lock, also takes it there):
// idle ticks of many projects are the hot path (targets: ≤ 3 queries, ≤ 1 ms CPU),
// so these go to the pool directly rather than through Prisma.
const snapshotSelect = (loopStateTable: string) => `
  SELECT json_build_object(
    'project', to_jsonb(p.*),
    'settings', to_jsonb(s.*),
    'loopState', to_jsonb(ls.*),
    'budgeted', s."dailyBudgetUsd" IS NOT NULL OR s."monthlyBudgetUsd" IS NOT NULL
      OR EXISTS (SELECT 1 FROM "Team" t WHERE t.id = p."teamId" AND (t."dailyBudgetUsd" IS NOT NULL OR t."monthlyBudgetUsd" IS NOT NULL)),
    'campaigning', EXISTS (SELECT 1 FROM "Campaign" c WHERE c."projectId" = p.id AND c.phase IN ('planning', 'executing') AND NOT c.paused),
    'runs', COALESCE((SELECT json_agg(json_build_object(
        'id', r.id, 'kind', r.kind, 'status', r.status, 'promptId', r."promptId",
        'leaseExpiresAt', r."leaseExpiresAt", 'queuedAt', r."queuedAt", 'finishedAt', r."finishedAt", 'mergeStatus', r."mergeStatus"))
      FROM "Run" r WHERE r."projectId" = p.id
        AND r.status IN (${LIVE_RUN_STATUSES_SQL})), '[]'::json),
    'merging', COALESCE((SELECT json_agg(json_build_object('runId', r.id, 'promptId', r."promptId"))
      FROM "Run" r WHERE r."projectId" = p.id AND r.status = 'succeeded' AND r."mergeStatus" = 'pending'), '[]'::json),
    'openPulls', COALESCE((SELECT json_agg(pr.number ORDER BY pr.number) FROM "PullRequest" pr
      JOIN "Prompt" q ON q.id = pr."promptId" AND q.status = 'in_progress'
      WHERE pr."projectId" = p.id AND pr.state = 'open'), '[]'::json),
    'prompts', COALESCE((SELECT json_agg(json_build_object(
        'id', q.id, 'number', q.number, 'status', q.status, 'priority', q.priority, 'filePath', q."filePath", 'fileStatus', q."fileStatus", 'retryAt', q."retryAt",
        'dependencies', COALESCE(q.dependencies, '{}'), 'approval', q.approval, 'title', q.title,
        'pinLost', ${pinLostSql("q")}))
      FROM "Prompt" q WHERE q."projectId" = p.id AND q."planningKey" = p."planningKey"
        -- a paused campaign's tasks wait out of the loop's sight until it is started again
        AND (q."campaignId" IS NULL OR NOT EXISTS (SELECT 1 FROM "Campaign" c WHERE c.id = q."campaignId" AND c.paused))), '[]'::json)
  ) AS snap
  FROM ${loopStateTable} ls
  JOIN "Project" p ON p.id = ls."projectId" AND p."archivedAt" IS NULL
  JOIN "ProjectSettings" s ON s."projectId" = p.id`;

interface RawRun { id: string; kind: RunKind; status: RunStatus; promptId: string | null; leaseExpiresAt: string | null; queuedAt: string; finishedAt: string | null; mergeStatus: string | null }
interface RawSnapshot {
  project: { id: string; teamId: string; repoKind: "local" | "github"; repoPath: string | null; activeBranch: string | null; baseBranch: string; planningKey: string; githubOwner: string | null; githubRepo: string | null };
  settings: {
    parallelEnabled: boolean; maxParallel: number; spawnCooldownMs: number; plannerEnabled: boolean; plannerProfileId: string | null;
    executorProfileId: string | null; modelRouting: unknown; useRunners: boolean; prCheckFrequency: number; tickIntervalMs: number;
  };
  loopState: { mode: LoopMode; emergentSpawnCount: number; emergentLastPromptCount: number | null; plannerLastSpawnAt: string | null; lastSpawnAt: string | null; tickCount: number; snapshotHash: string | null; lastPendingCount: number; lastStatus: string | null; pauseReason: string | null; tickBackoff: number };
  /** whether a project or team budget applies, so the tick checks the ledger */
  budgeted: boolean;
  /** whether an open, unpaused campaign needs the tick's campaign step (lib/loop/campaign.ts) */
  campaigning: boolean;
  runs: RawRun[];
  /** Runs that succeeded with commits whose merge has not landed yet. */
  merging: Array<{ runId: string; promptId: string | null }>;
  /** Numbers of open PRs whose prompt waits for them to merge (its work is pushed, not on the base yet). */
  openPulls: number[];
  prompts: Array<{ id: string; number: number; status: PromptStatus; priority: number; filePath: string | null; fileStatus: PromptStatus | null; retryAt: string | null; dependencies: number[]; approval: string; title: string; pinLost: boolean }>;
}

const date = (v: string | null) => (v === null ? null : new Date(v));

function hydrate(raw: RawSnapshot) {
  const ls = raw.loopState;
  const runs = raw.runs.map((r) => ({ ...r, leaseExpiresAt: date(r.leaseExpiresAt), queuedAt: new Date(r.queuedAt), finishedAt: date(r.finishedAt) }));
  return {
    project: raw.project,
    settings: raw.settings,
    loopState: { ...ls, plannerLastSpawnAt: date(ls.plannerLastSpawnAt), lastSpawnAt: date(ls.lastSpawnAt) },
    budgeted: raw.budgeted,
    campaigning: raw.campaigning,
    runs,
    merging: raw.merging,
    openPulls: raw.openPulls,
    prompts: raw.prompts.map((p) => ({ ...p, retryAt: date(p.retryAt) })),
  };
}

export type TickSnapshot = ReturnType<typeof hydrate>;

/** Takes the project's tick lock and reads its snapshot in one statement; null when locked or archived. */
export async function lockAndLoad(projectId: string, owner: string, lockMs: number): Promise<TickSnapshot | null> {
  const { rows } = await getPool().query<{ snap: RawSnapshot }>(prepared(
    `WITH locked AS (
      UPDATE "LoopState" SET "tickLockedUntil" = now() + make_interval(secs => $3::float8 / 1000), "tickLockedBy" = $2
      WHERE "projectId" = $1 AND ("tickLockedUntil" IS NULL OR "tickLockedUntil" < now())
        AND EXISTS (SELECT 1 FROM "Project" WHERE id = $1 AND "archivedAt" IS NULL)
      RETURNING *
    ) ${snapshotSelect("locked")}`,
    [projectId, owner, lockMs],
  ));
  return rows[0] ? hydrate(rows[0].snap) : null;
}

/** Re-reads the snapshot of a project whose lock this tick already holds. */
export async function loadTickSnapshot(projectId: string): Promise<TickSnapshot | null> {
  const { rows } = await getPool().query<{ snap: RawSnapshot }>(prepared(`${snapshotSelect(`"LoopState"`)} WHERE ls."projectId" = $1`, [projectId]));
  return rows[0] ? hydrate(rows[0].snap) : null;
}

/** Why a tick found no snapshot: another tick holds the lock, or the project is archived or gone. */
export async function tickSkipReason(projectId: string): Promise<"locked" | "inactive"> {
  const { rows } = await getPool().query(`SELECT 1 FROM "Project" WHERE id = $1 AND "archivedAt" IS NULL`, [projectId]);
  return rows.length ? "locked" : "inactive";
}
