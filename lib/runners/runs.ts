import { z } from "zod";
import { getDb, type AgentModel as Agent } from "@/lib/db";
import { getEnv } from "@/lib/env";
import type { RunnerCaller } from "@/lib/auth/runner-tokens";
import { recordAudit } from "@/lib/audit/record";
import { DomainError } from "@/lib/errors";
import { wholeNumber } from "@/lib/validation/numbers";
import { completeRun } from "@/lib/runs/complete";
import { renewLease } from "@/lib/runs/lease";
import { appendRunLog } from "@/lib/runs/log-append";
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

const usage = {
  costUsd: z.number({ error: "must be a number" }).min(0, "must not be negative").max(1e9, "is too large").optional(),
  inputTokens: wholeNumber(0, 2_000_000_000).optional(),
  outputTokens: wholeNumber(0, 2_000_000_000).optional(),
};

export const heartbeatInput = z.object(usage);

/** The runner's heartbeat renews the run's lease (and saves what it used so far), like a spawn worker's. */
export async function heartbeatRun(caller: RunnerCaller, agent: Agent, runId: string, raw: unknown) {
  const input = heartbeatInput.parse(raw ?? {});
  await requireScopedRun(caller, runId);
  const ttl = getEnv().LEASE_TTL_MS;
  if (!(await renewLease(runId, holderOf(agent), ttl))) throw notHeld();
  if (input.costUsd !== undefined || input.inputTokens !== undefined || input.outputTokens !== undefined) {
    await getDb().run.updateMany({ where: { id: runId, status: "running" }, data: input });
    await recordRemoteSpend(runId, input);
  }
  return { leaseTtlMs: ttl };
}

const MAX_LINES = 2_000;
export const logInput = z.object({
  seq: wholeNumber(1, 10_000_000),
  lines: z.array(z.string().max(64 * 1024, "must each be at most 65536 characters"), { error: "must be an array of strings" })
    .min(1, "must not be empty").max(MAX_LINES, `must hold at most ${MAX_LINES} lines`),
});

export async function appendRemoteLog(caller: RunnerCaller, agent: Agent, runId: string, raw: unknown) {
  const input = logInput.parse(raw);
  await requireScopedRun(caller, runId);
  const result = await appendRunLog(runId, holderOf(agent), input.seq, input.lines);
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
}).refine((o) => o.status === "succeeded" || !o.commitSha, { message: "is only reported for a succeeded run", path: ["commitSha"] });

/**
 * The runner's completion report, applied through the same idempotent `completeRun` as a
 * spawn worker's. A replay, or a report for a run that was meanwhile lost and handed out
 * again, answers 200 with `applied: false`: the late report is recorded, not applied.
 */
export async function reportRemoteCompletion(caller: RunnerCaller, agent: Agent, runId: string, raw: unknown) {
  const outcome = completionInput.parse(raw);
  const run = await requireScopedRun(caller, runId);
  if (run.remoteAgentId !== agent.id) throw notHeld();
  // Spent is spent, whether or not the report is applied.
  await recordRemoteSpend(runId, outcome);
  const applied = run.workerId === holderOf(agent) && (await completeRun(runId, outcome));
  if (!applied) {
    await recordAudit({
      teamId: run.project.teamId, by: { kind: "token", id: caller.tokenId }, action: "run.late_report", target: { type: "run", id: runId },
      after: { reported: outcome.status, runStatus: (await getDb().run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).status },
    });
  }
  return { applied };
}
