import { fromJsonRow, getPool, prepared, type Prisma } from "@/lib/db";

export type ClaimedRun = Prisma.RunGetPayload<{ include: { project: { include: { settings: true } }; prompt: true; agentProfile: true } }>;

// The claim and everything the start needs, in one statement: no transaction on the path of every
// run start, and no read after the claim that a lost connection could leave undone (the run would
// be claimed by nobody, and its job's retry would find it taken). Left joins, so a claimed run
// always comes back.
const CLAIM_RUN_SQL = `
  WITH claimed AS (
    UPDATE "Run" SET status = 'starting', "workerId" = $2, "leaseExpiresAt" = $3::timestamp, "heartbeatAt" = $4::timestamp
    WHERE id = $1 AND status = 'queued' AND NOT remote
    RETURNING *
  )
  SELECT to_jsonb(r) AS run, to_jsonb(p) AS project, to_jsonb(s) AS settings, to_jsonb(q) AS prompt, to_jsonb(a) AS profile
  FROM claimed r
  LEFT JOIN "Project" p ON p.id = r."projectId"
  LEFT JOIN "ProjectSettings" s ON s."projectId" = r."projectId"
  LEFT JOIN "Prompt" q ON q.id = r."promptId"
  LEFT JOIN "AgentProfile" a ON a.id = r."agentProfileId"`;

type Row = Record<string, unknown>;

/** Takes a queued local run for this worker (status starting, leased); null when it is not queued (a duplicate job, a remote run). */
export async function claimQueuedRun(runId: string, workerId: string, leaseTtlMs: number): Promise<ClaimedRun | null> {
  const now = new Date();
  const { rows: [row] } = await getPool().query<{ run: Row; project: Row; settings: Row | null; prompt: Row | null; profile: Row | null }>(
    prepared(CLAIM_RUN_SQL, [runId, workerId, new Date(now.getTime() + leaseTtlMs).toISOString(), now.toISOString()]));
  if (!row) return null;
  return {
    ...fromJsonRow<ClaimedRun>("run", row.run),
    project: { ...fromJsonRow<ClaimedRun["project"]>("project", row.project), settings: fromJsonRow("projectSettings", row.settings) },
    prompt: fromJsonRow("prompt", row.prompt),
    agentProfile: fromJsonRow("agentProfile", row.profile),
  };
}
