import { resolve } from "node:path";
import { getDb } from "@/lib/db";
import { recordRunDiff } from "@/lib/runs/diff";
import { getEnv } from "@/lib/env";
import { dataDir } from "@/lib/data-dir";
import { workerId } from "@/lib/worker-id";
import { getLogger } from "@/lib/log";
import { announce } from "@/lib/events/publish";
import { commitAll, commitsAhead, createFreshWorktree, createWorktree, headSha, runBranchName } from "@/lib/git";
import { requireAdapter } from "@/lib/agents/registry";
import { supervisedAdapter } from "@/lib/runs/watchdog";
import { createRunToken } from "@/lib/auth/tokens";
import { agentEnvironment } from "@/lib/runs/environment";
import { credentialsForRun } from "@/lib/credentials/for-run";
import type { RunOutcome } from "@/lib/runs/complete";
import { reportOutcome } from "@/lib/runs/report";
import { startLeaseRenewal } from "@/lib/runs/lease";
import { RunLogSink } from "@/lib/runs/log-sink";
import { runAgentAndVerify } from "@/lib/runs/agent-step";
import { prepareGithubClone } from "@/lib/github/repo";
import { openRunSandbox, recordEgress } from "@/lib/runs/sandbox";
import { wireMcp } from "@/lib/runs/mcp";
import { writeHomeConfig } from "@/lib/runs/home-config";
import { homeConfigSecrets } from "@/lib/agents/home-config";
import { MCP_SERVER_NAME } from "@/lib/agents/mcp-config";
import { plannerPrompt } from "@/lib/runs/planner-prompt";
import { budgetedCeilings, refusal, runCeilings, runWallTimeMs } from "@/lib/spend/ceilings";
import { teamPriceTable } from "@/lib/budgets/prices";
import { whenPostgresAnswers } from "@/lib/runs/backoff";
import { leadPrompt } from "@/lib/threads/lead-run";
import { advanceRoutes } from "@/lib/threads/routing";
import { campaignCommitTitle, campaignRunInput, checkArchitectAnswer, isCampaignRun } from "@/lib/runs/campaign-run";


// Read first, then claim with one conditional UPDATE: no interactive transaction on the path of
// every run start, and no read after the claim that a lost connection could leave undone (the
// run would be claimed by nobody, and its job's retry would find it taken).
async function claimRun(runId: string, me: string) {
  const env = getEnv();
  const db = getDb();
  const run = await db.run.findFirst({
    where: { id: runId, status: "queued", remote: false },
    include: { project: { include: { settings: true } }, prompt: true, agentProfile: true },
  });
  if (!run) return null;
  const n = await db.run.updateMany({
    where: { id: runId, status: "queued", remote: false },
    data: { status: "starting", workerId: me, leaseExpiresAt: new Date(Date.now() + env.LEASE_TTL_MS), heartbeatAt: new Date() },
  });
  return n.count === 1 ? run : null;
}

/**
 * Runs one agent: claims the queued run (a duplicate job finds nothing to claim), prepares
 * its worktree, supervises the process under a lease, then records the outcome once (the
 * lease is kept until it is recorded, however long Postgres takes to come back).
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
    opts.signal?.removeEventListener("abort", onShutdown);
  }
  if (abort.signal.aborted && abort.signal.reason === "shutdown") {
    outcome = { ...outcome, status: "cancelled", error: "worker shut down; the prompt goes back to the queue", countAttempt: false };
  }
  await log.flush();
  if (outcome.status === "failed") {
    const detail = outcome.failureLog ?? log.tail.slice(-50).join("\n");
    // The first line says why (a prompt's card shows it); the log tail after it is the evidence.
    outcome.failureLog = outcome.error && !detail.startsWith(outcome.error) ? `${outcome.error}\n\n${detail}` : detail;
  }
  try {
    await reportOutcome(runId, outcome, opts.signal);
  } finally {
    stopRenewal();
  }
}

type ClaimedRun = NonNullable<Awaited<ReturnType<typeof claimRun>>>;

async function superviseRun(run: ClaimedRun, log: RunLogSink, signal: AbortSignal): Promise<RunOutcome> {
  const db = getDb();
  const { project, prompt, agentProfile: profile } = run;
  const untilDb = <T>(step: string, work: () => Promise<T>) => whenPostgresAnswers(work, { runId: run.id, step, signal });
  if (!profile) throw new Error("the run has no agent profile");
  const settings = { ...project.settings!, maxRunDurationMs: runWallTimeMs(profile, project.settings!) };
  const { ceilings, costLimit } = budgetedCeilings(runCeilings(profile, settings), run.reservedUsd);
  const refused = refusal(ceilings, profile.adapter);
  if (refused) return { status: "failed", exitCode: null, signal: null, error: refused, failureLog: refused, retry: false };
  const repoPath = project.repoKind === "github" ? await prepareGithubClone(project, prompt?.branch) : project.repoPath;
  if (!repoPath) throw new Error("the project has no repository path");

  const baseBranch = project.activeBranch ?? project.baseBranch;
  // One worktree per branch: a retry on the same branch continues in it.
  const pathOf = (b: string) => resolve(dataDir(), "worktrees", project.id, b.replaceAll("/", "_"));
  // A prompt's first run (or its first after a merge conflict) starts a new branch, on the fast path.
  const known = prompt ? prompt.branch : `ringmaster/${run.kind}-${run.id}`;
  const wt = known
    ? await createWorktree({ repoPath, path: pathOf(known), branch: known, baseBranch })
    : await createFreshWorktree({ repoPath, name: runBranchName(prompt!.number, prompt!.title), baseBranch, pathOf });
  const branch = wt.branch;
  if (prompt && !prompt.branch) await untilDb("branch", () => db.prompt.update({ where: { id: prompt.id }, data: { branch } }));

  const token = await untilDb("token", () => createRunToken({ id: run.id, projectId: project.id, teamId: project.teamId }, settings.maxRunDurationMs + 10 * 60_000));
  const prices = await untilDb("prices", () => teamPriceTable(project.teamId));
  const credentials = await untilDb("credentials", () => credentialsForRun(project.teamId, profile.envAllowList));
  const childEnv = agentEnvironment({ allowList: profile.envAllowList, credentials, token, runId: run.id, projectId: project.id, promptId: prompt?.id ?? null });
  // The team's provider keys, the allow-listed variables named like secrets and the run's own
  // token never reach the log as they are.
  const secretLike = Object.fromEntries(profile.envAllowList.filter((n) => /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/.test(n) && childEnv[n]).map((n) => [n, childEnv[n]]));
  log.mask({ ...secretLike, ...homeConfigSecrets(profile.adapter, childEnv), ...credentials, RINGMASTER_TOKEN: token });
  const campaignText = await campaignRunInput(run, prompt, wt.path, (line) => log.push(line));
  await untilDb("start", () => db.run.update({
    where: { id: run.id },
    data: { status: "running", startedAt: new Date(), branch, worktreePath: wt.path, baseSha: wt.baseSha },
  }));
  await announce(project.teamId, { type: "agentsChange", projectId: project.id, runId: run.id, promptId: prompt?.id });
  // The worker has the task: a lead's route (or verify) turn for this prompt or run is delivered.
  await untilDb("route", () => advanceRoutes(prompt?.id ?? null, "delivered", run.id));

  // The agent and the verify command run confined; we commit once the sandbox has ended.
  const sandbox = await openRunSandbox({ worktree: wt.path, settings, adapter: profile.adapter, token, log: (line) => log.push(line) });
  const adapter = supervisedAdapter(requireAdapter(profile.adapter), sandbox, process.execPath);
  let outcome: RunOutcome;
  try {
    const written = await writeHomeConfig(sandbox, profile.adapter, childEnv);
    if (written) log.push(`[ringmaster] wrote ~/${written} in the run's HOME from the profile's variable`);
    const mcp = await wireMcp(sandbox, profile.adapter);
    const text = campaignText ?? (prompt ? `# Prompt ${prompt.number}: ${prompt.title}\n\n${prompt.body}`
      : run.kind === "lead" && run.threadId ? await untilDb("thread", () => leadPrompt(run.threadId!, run.threadSeq ?? 0, mcp.wired ? MCP_SERVER_NAME : null))
      : plannerPrompt(project.planningKey, mcp.wired));
    outcome = await runAgentAndVerify({
      runId: run.id, profile, settings, adapter, signal, log, env: { ...childEnv, ...mcp.env }, launch: sandbox.launch,
      ledger: { runId: run.id, teamId: project.teamId, projectId: project.id, agentProfileId: profile.id, queuedById: prompt?.createdById ?? null },
      limits: { ceilings, costLimit, prices, loops: { repeatLimit: settings.loopRepeatLimit, failureLimit: settings.loopFailureLimit } },
      context: { prompt: text, model: run.model ?? undefined, commandTemplate: profile.commandTemplate ?? undefined, worktree: wt.path, extraArgs: [...mcp.args, ...profile.extraArgs], permissionMode: profile.permissionMode ?? undefined },
    });
  } finally {
    const egress = await sandbox.close();
    await untilDb("egress", () => recordEgress(run.id, egress, "agent"));
    // The agent may hide a refusal; the run's log says it anyway.
    for (const [host, n] of Object.entries(egress.blocked)) log.push(`Ringmaster egress policy blocked ${host} (${n}×): the project does not allow it`);
  }
  // A lead answers in its thread, an architect with a plan, a reflector with a verdict: they change
  // no code, so nothing of their worktree is committed.
  if (run.kind === "architect") outcome = checkArchitectAnswer(run, outcome, (line) => log.push(line));
  if (outcome.status !== "succeeded" || run.kind === "lead" || isCampaignRun(run)) return outcome;
  const title = campaignCommitTitle(prompt) ?? (prompt ? `feat(prompt-${prompt.number}): ${prompt.title}` : `chore(${run.kind}): ${run.id}`);
  const commitSha = (await commitAll(wt.path, title, baseBranch))
    ?? ((await commitsAhead(repoPath, branch, baseBranch)) > 0 ? await headSha(wt.path) : null);
  if (commitSha) await recordRunDiff(run.id, wt.path, wt.baseSha, commitSha);
  return { ...outcome, commitSha };
}
