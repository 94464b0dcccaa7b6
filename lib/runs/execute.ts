import { resolve } from "node:path";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { workerId } from "@/lib/worker-id";
import { getLogger } from "@/lib/log";
import { announce } from "@/lib/events/publish";
import { branchExists, commitAll, commitsAhead, createWorktree, headSha, runBranchName } from "@/lib/git";
import { requireAdapter } from "@/lib/agents/registry";
import { runAgent } from "@/lib/agents/run";
import type { ResultEvent } from "@/lib/agents/types";
import { underWatchdog } from "@/lib/runs/watchdog";
import { createRunToken } from "@/lib/auth/tokens";
import { agentEnvironment } from "@/lib/runs/environment";
import { completeRun, type RunOutcome } from "@/lib/runs/complete";
import { startLeaseRenewal } from "@/lib/runs/lease";
import { RunLogSink } from "@/lib/runs/log-sink";
import { runVerifyCommand } from "@/lib/runs/verify";
import { prepareGithubClone } from "@/lib/github/repo";


async function claimRun(runId: string, me: string) {
  const env = getEnv();
  const n = await getDb().run.updateMany({
    where: { id: runId, status: "queued" },
    data: { status: "starting", workerId: me, leaseExpiresAt: new Date(Date.now() + env.LEASE_TTL_MS), heartbeatAt: new Date() },
  });
  if (n.count !== 1) return null;
  return getDb().run.findUniqueOrThrow({
    where: { id: runId },
    include: { project: { include: { settings: true } }, prompt: true, agentProfile: true },
  });
}

/**
 * Runs one agent: claims the queued run (a duplicate job finds nothing to claim), prepares
 * its worktree, supervises the process under a lease, then records the outcome once.
 */
export async function executeRun(runId: string, opts: { signal?: AbortSignal } = {}): Promise<void> {
  const me = workerId();
  const run = await claimRun(runId, me);
  if (!run) return;
  const env = getEnv();
  const log = new RunLogSink(runId);
  const abort = new AbortController();
  const stopRenewal = startLeaseRenewal({ runId, workerId: me, ttlMs: env.LEASE_TTL_MS, everyMs: env.LEASE_RENEW_MS, onLost: () => abort.abort("lease lost") });
  const onShutdown = () => abort.abort(opts.signal!.reason);
  opts.signal?.addEventListener("abort", onShutdown, { once: true });
  let outcome: RunOutcome;
  try {
    outcome = await superviseRun(run, log, abort.signal);
  } catch (err) {
    outcome = { status: "failed", exitCode: null, signal: null, error: (err as Error).message, failureLog: (err as Error).message };
    getLogger("runs").warn({ runId, err: (err as Error).message }, "run failed before or around its agent");
  } finally {
    stopRenewal();
    opts.signal?.removeEventListener("abort", onShutdown);
  }
  if (abort.signal.aborted && abort.signal.reason === "shutdown") {
    outcome = { ...outcome, status: "cancelled", error: "worker shut down; the prompt goes back to the queue", countAttempt: false };
  }
  await log.flush();
  if (outcome.status === "failed" && !outcome.failureLog) outcome.failureLog = log.tail.slice(-50).join("\n");
  await completeRun(runId, outcome);
}

type ClaimedRun = NonNullable<Awaited<ReturnType<typeof claimRun>>>;

async function superviseRun(run: ClaimedRun, log: RunLogSink, signal: AbortSignal): Promise<RunOutcome> {
  const env = getEnv();
  const db = getDb();
  const { project, prompt, agentProfile: profile } = run;
  const settings = project.settings!;
  if (!profile) throw new Error("the run has no agent profile");
  const repoPath = project.repoKind === "github" ? await prepareGithubClone(project, prompt?.branch) : project.repoPath;
  if (!repoPath) throw new Error("the project has no repository path");

  const baseBranch = project.activeBranch ?? project.baseBranch;
  const branch = prompt?.branch ?? (prompt ? await freshBranchName(repoPath, runBranchName(prompt.number, prompt.title)) : `ringmaster/${run.kind}-${run.id}`);
  // One worktree per branch: a retry on the same branch continues in it.
  const path = resolve(env.DATA_DIR, "worktrees", project.id, branch.replaceAll("/", "_"));
  const wt = await createWorktree({ repoPath, path, branch, baseBranch });
  if (prompt && !prompt.branch) await db.prompt.update({ where: { id: prompt.id }, data: { branch } });

  const token = await createRunToken({ id: run.id, projectId: project.id, teamId: project.teamId }, settings.maxRunDurationMs + 10 * 60_000);
  const childEnv = agentEnvironment({ allowList: profile.envAllowList, token, runId: run.id, projectId: project.id, promptId: prompt?.id ?? null });
  const adapter = underWatchdog(requireAdapter(profile.adapter), process.execPath);
  const text = prompt ? `# P${prompt.number}: ${prompt.title}\n\n${prompt.body}` : plannerPrompt(project.planningKey);

  await db.run.update({
    where: { id: run.id },
    data: { status: "running", startedAt: new Date(), branch, worktreePath: wt.path, baseSha: wt.baseSha },
  });
  await announce(project.teamId, { type: "agentsChange", projectId: project.id, runId: run.id, promptId: prompt?.id });

  let sawSignal = !profile.completionSignal;
  const exit = await runAgent({
    adapter,
    context: { prompt: text, model: run.model ?? undefined, commandTemplate: profile.commandTemplate ?? undefined, worktree: wt.path, extraArgs: profile.extraArgs },
    env: childEnv,
    signal,
    maxDurationMs: settings.maxRunDurationMs,
    onSpawn: (pid) => void db.run.update({ where: { id: run.id }, data: { pid } }).catch(() => {}),
    onLine: ({ line, stream }) => {
      log.push(stream === "stderr" ? `[stderr] ${line}` : line);
      if (profile.completionSignal && line.includes(profile.completionSignal)) sawSignal = true;
    },
    onEvent: (e) => {
      if (e.type === "result") void db.run.update({ where: { id: run.id }, data: { lastResultAt: new Date() } }).catch(() => {});
    },
  });
  const result: Partial<ResultEvent> = exit.result ?? {};

  const base = { exitCode: exit.exitCode, signal: exit.signal, summary: result.summary, costUsd: result.costUsd, inputTokens: result.inputTokens, outputTokens: result.outputTokens };
  if (exit.timedOut) return { ...base, status: "timed_out", error: `exceeded the maximum duration of ${settings.maxRunDurationMs} ms` };
  if (signal.aborted) return { ...base, status: "cancelled", error: String(signal.reason) };
  if (exit.exitCode !== 0) return { ...base, status: "failed", error: `agent exited with ${exit.exitCode ?? exit.signal}` };
  if (!sawSignal) return { ...base, status: "failed", error: `completion signal "${profile.completionSignal}" not printed` };
  if (settings.verifyCommand) {
    const verify = await runVerifyCommand(settings.verifyCommand, wt.path, childEnv);
    log.push(`[ringmaster] verify \`${settings.verifyCommand}\`: ${verify.ok ? "passed" : "FAILED"}`);
    if (!verify.ok) return { ...base, status: "failed", error: "verify command failed", failureLog: verify.output };
  }
  const title = prompt ? `feat(P${prompt.number}): ${prompt.title}` : `chore(${run.kind}): ${run.id}`;
  const commitSha = (await commitAll(wt.path, title, baseBranch))
    ?? ((await commitsAhead(repoPath, branch, baseBranch)) > 0 ? await headSha(wt.path) : null);
  return { ...base, status: "succeeded", commitSha };
}

// A prompt sent back after a merge conflict starts a new branch; its old one is kept.
async function freshBranchName(repoPath: string, name: string): Promise<string> {
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? name : `${name}-${i}`;
    if (!(await branchExists(repoPath, candidate))) return candidate;
  }
}

function plannerPrompt(planningKey: string): string {
  return [
    "You are the planner of this repository. Study it and propose the next units of work.",
    `Write each as a prompt file .planning/${planningKey}/prompts/NN-slug.md with YAML frontmatter`,
    "(number, title, status: pending, priority 1-4, dependencies), or POST them to $RINGMASTER_URL/api/prompts with $RINGMASTER_TOKEN.",
  ].join("\n");
}
