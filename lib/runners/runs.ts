import { z } from "zod";
import { getDb, type AgentModel as Agent } from "@/lib/db";
import { getEnv } from "@/lib/env";
import type { RunnerCaller } from "@/lib/auth/runner-tokens";
import { recordAudit } from "@/lib/audit/record";
import { DomainError } from "@/lib/errors";
import { wholeNumber } from "@/lib/validation/numbers";
import { cliModelShape, sessionIdShape } from "@/lib/agents/session-id";
import { completeRun } from "@/lib/runs/complete";
import { renewLease } from "@/lib/runs/lease";
import { appendRunLog } from "@/lib/runs/log-append";
import { LogMask, runLogSecrets } from "@/lib/runs/log-mask";
import { credentialsForRun } from "@/lib/credentials/for-run";
import { recordRemoteSpend } from "@/lib/runners/spend";

export const holderOf = (agent: Pick<Agent, "id">) => `runner:${agent.id}`;

const notHeld = () => new DomainError(409, "conflict", "this runner does not hold the run (it was lost, cancelled or finished): stop its agent");

/** A run of the caller's team (and project, for a scoped token); any other is 404. */
async function requireScopedRun(caller: RunnerCaller, runId: string) {
  const run = await getDb().run.findFirst({
    where: { id: runId, project: { teamId: caller.teamId, ...(caller.projectId ? { id: caller.projectId } : {}) } },
    select: { id: true, status: true, remoteAgentId: true, workerId: true, project: { select: { teamId: true } } },
  });
  if (!run) throw new DomainError(404, "not_found", "run not found");
  return run;
}

const tokens = () => wholeNumber(0, 2_000_000_000).optional();
// What the runner's agent used so far (input includes the cached part, output the reasoning),
// and the CLI's session id: the same quantities a worker records.
const usage = {
  costUsd: z.number({ error: "must be a number" }).min(0, "must not be negative").max(1e9, "is too large").optional(),
  inputTokens: tokens(),
  cacheReadTokens: tokens(),
  cacheWriteTokens: tokens(),
  outputTokens: tokens(),
  sessionId: sessionIdShape.optional(),
  // The model the CLI used, when the run named none.
  model: cliModelShape.optional(),
};

type Usage = { inputTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number };
/** The cached parts are parts of the input: more than it is a bad report. */
function cachedWithinInput(u: Usage, ctx: z.RefinementCtx) {
  for (const field of ["cacheReadTokens", "cacheWriteTokens"] as const) {
    if ((u[field] ?? 0) > (u.inputTokens ?? 0)) ctx.addIssue({ code: "custom", path: [field], message: "must not be more than inputTokens (which includes the cached input)" });
  }
}

export const heartbeatInput = z.object(usage).superRefine(cachedWithinInput);

/** The run row's share of a report: its totals, and the session id and model once (the first named stays). */
async function saveUsage(runId: string, input: z.infer<typeof heartbeatInput>, where: { status?: "running" } = {}) {
  const { costUsd, inputTokens, outputTokens, sessionId, model } = input;
  const db = getDb();
  if (costUsd !== undefined || inputTokens !== undefined || outputTokens !== undefined) {
    await db.run.updateMany({ where: { id: runId, ...where }, data: { costUsd, inputTokens, outputTokens } });
  }
  if (sessionId !== undefined) await db.run.updateMany({ where: { id: runId, sessionId: null }, data: { sessionId } });
  if (model !== undefined) await db.run.updateMany({ where: { id: runId, model: null }, data: { model } });
}

/** The runner's heartbeat renews the run's lease (and saves what it used so far), like a spawn worker's. */
export async function heartbeatRun(caller: RunnerCaller, agent: Agent, runId: string, raw: unknown) {
  const input = heartbeatInput.parse(raw ?? {});
  await requireScopedRun(caller, runId);
  const ttl = getEnv().LEASE_TTL_MS;
  if (!(await renewLease(runId, holderOf(agent), ttl))) throw notHeld();
  await saveUsage(runId, input, { status: "running" });
  await recordRemoteSpend(runId, input);
  return { leaseTtlMs: ttl };
}

const MAX_LINES = 2_000;
export const logInput = z.object({
  seq: wholeNumber(1, 10_000_000),
  lines: z.array(z.string().max(64 * 1024, "must each be at most 65536 characters"), { error: "must be an array of strings" })
    .min(1, "must not be empty").max(MAX_LINES, `must hold at most ${MAX_LINES} lines`),
});

/**
 * What the server masks in a runner's log chunk, as a worker masks its own run's log: the team's
 * keys the run's profile allow-lists (and those inside a provider file among them) and any
 * Ringmaster token. The runner masks what it gave its agent before it sends (runner/work.ts).
 */
async function remoteLogMask(runId: string, teamId: string): Promise<LogMask> {
  const run = await getDb().run.findUniqueOrThrow({ where: { id: runId }, select: { agentProfile: { select: { envAllowList: true } } } });
  const allowList = run.agentProfile?.envAllowList ?? [];
  const credentials = await credentialsForRun(teamId, allowList);
  return new LogMask().add(runLogSecrets({ env: {}, passed: allowList, credentials }));
}

export async function appendRemoteLog(caller: RunnerCaller, agent: Agent, runId: string, raw: unknown) {
  const input = logInput.parse(raw);
  const run = await requireScopedRun(caller, runId);
  const mask = await remoteLogMask(runId, run.project.teamId);
  const result = await appendRunLog(runId, holderOf(agent), input.seq, input.lines.map((l) => mask.apply(l)));
  if (!result) throw notHeld();
  return { seq: input.seq, stored: result.stored };
}

const SHA = /^[0-9a-f]{40}$/;
export const completionInput = z.object({
  status: z.enum(["succeeded", "failed", "timed_out", "cancelled"], { error: "must be succeeded, failed, timed_out or cancelled" }),
  exitCode: z.number({ error: "must be a whole number or null" }).int("must be a whole number").min(-1_000).max(1_000).nullable().default(null),
  signal: z.string().max(20, "must be at most 20 characters").nullable().default(null),
  error: z.string().max(2_000, "must be at most 2000 characters").optional(),
  summary: z.string().max(20_000, "must be at most 20000 characters").optional(),
  commitSha: z.string().regex(SHA, "must be a 40-character git commit id").nullable().optional(),
  failureLog: z.string().max(100_000, "must be at most 100000 characters").optional(),
  // false: a ceiling or the loop detector stopped the run; a person decides on a retry.
  retry: z.boolean({ error: "must be true or false" }).optional(),
  ...usage,
}).refine((o) => o.status === "succeeded" || !o.commitSha, { message: "is only reported for a succeeded run", path: ["commitSha"] })
  .superRefine(cachedWithinInput);

/**
 * The runner's completion report, applied through the same idempotent `completeRun` as a
 * spawn worker's. A replay, or a report for a run that was meanwhile lost and handed out
 * again, answers 200 with `applied: false`: the late report is recorded, not applied.
 */
export async function reportRemoteCompletion(caller: RunnerCaller, agent: Agent, runId: string, raw: unknown) {
  const outcome = completionInput.parse(raw);
  const run = await requireScopedRun(caller, runId);
  if (run.remoteAgentId !== agent.id) throw notHeld();
  const holds = run.workerId === holderOf(agent);
  // The holder's word on the CLI's session and model goes on the run first (its ledger line names
  // the model); its figures are the outcome's to write.
  if (holds && (outcome.sessionId || outcome.model)) await saveUsage(runId, { sessionId: outcome.sessionId, model: outcome.model });
  // Spent is spent, whether or not the report is applied.
  await recordRemoteSpend(runId, outcome);
  const applied = holds && (await completeRun(runId, outcome));
  if (!applied) {
    await recordAudit({
      teamId: run.project.teamId, by: { kind: "token", id: caller.tokenId }, action: "run.late_report", target: { type: "run", id: runId },
      after: { reported: outcome.status, runStatus: (await getDb().run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).status },
    });
  }
  return { applied };
}
