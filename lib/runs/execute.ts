import { resolve } from "node:path";
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
import { prepareRunSandbox, projectWorktreeGit, recordEgress, shareRunRepository } from "@/lib/runs/sandbox";
import { refillSpareHolder } from "@/lib/sandbox/network-holder";
import { startBegun, whenStartsSettle } from "@/lib/runs/starts-in-flight";
import { wireMcp } from "@/lib/runs/mcp";
import { writeHomeConfig } from "@/lib/runs/home-config";
import { runLogSecrets } from "@/lib/runs/log-mask";
import { MCP_SERVER_NAME } from "@/lib/agents/mcp-config";
import { plannerPrompt } from "@/lib/runs/planner-prompt";
import { budgetedCeilings, refusal, runCeilings, runWallTimeMs } from "@/lib/spend/ceilings";
import { teamPriceTable } from "@/lib/budgets/prices";
import { whenPostgresAnswers } from "@/lib/runs/backoff";
import { leadPrompt } from "@/lib/threads/lead-run";
import { advanceRoutes } from "@/lib/threads/routing";
import { StartStages } from "@/lib/runs/start-stages";
import { recordPromptBranch, recordRunStarted } from "@/lib/runs/start-record";
import { projectPool, refillPool } from "@/lib/runs/worktree-pool";
import { claimQueuedRun, type ClaimedRun } from "@/lib/runs/claim-run";
import { campaignCommitTitle, campaignRunInput, checkArchitectAnswer, isCampaignRun } from "@/lib/runs/campaign-run";


/**
 * Runs one agent: claims the queued run (a duplicate job finds nothing to claim), prepares
 * its worktree, supervises the process under a lease, then records the outcome once (the
 * lease is kept until it is recorded, however long Postgres takes to come back).
 */
export async function executeRun(runId: string, opts: { signal?: AbortSignal; job?: { queuedAt?: number; pickedAt?: number } } = {}): Promise<void> {
  const me = workerId();
  const stages = new StartStages(opts.job);
  const env = getEnv();
  const run = await claimQueuedRun(runId, me, env.LEASE_TTL_MS);
  if (!run) return;
  stages.mark("claimed");
  const log = new RunLogSink(runId);
  const abort = new AbortController();
  const stopRenewal = startLeaseRenewal({ runId, workerId: me, ttlMs: env.LEASE_TTL_MS, everyMs: env.LEASE_RENEW_MS, onLost: () => abort.abort("lease lost") });
  const onShutdown = () => abort.abort(opts.signal!.reason);
  opts.signal?.addEventListener("abort", onShutdown);
  let outcome: RunOutcome;
  const startEnded = startBegun();
  try {
    outcome = await superviseRun(run, log, abort.signal, stages, startEnded);
  } catch (err) {
    outcome = { status: "failed", exitCode: null, signal: null, error: (err as Error).message, failureLog: (err as Error).message };
    getLogger("runs").warn({ runId, err: (err as Error).message }, "run failed before or around its agent");
  } finally {
    startEnded();
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

type Settled<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

/**
 * Like Promise.all, but a failure is thrown only once every step has ended (none is left running
 * behind the run's failure), after `onFailure` (which releases what the steps that succeeded made).
 */
async function settleAll<T extends readonly unknown[]>(steps: T, opts: { onFailure: () => Promise<unknown> }): Promise<Settled<T>> {
  const results = await Promise.allSettled(steps);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (!failed) return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as Settled<T>;
  await opts.onFailure();
  throw failed.reason;
}

async function superviseRun(run: ClaimedRun, log: RunLogSink, signal: AbortSignal, stages: StartStages, startEnded: () => void): Promise<RunOutcome> {
  const { project, prompt, agentProfile: profile } = run;
  const untilDb = <T>(step: string, work: () => Promise<T>) => whenPostgresAnswers(work, { runId: run.id, step, signal });
  if (!profile) throw new Error("the run has no agent profile");
  const settings = { ...project.settings!, maxRunDurationMs: runWallTimeMs(profile, project.settings!) };
  const { ceilings, costLimit } = budgetedCeilings(runCeilings(profile, settings), run.reservedUsd);
  const refused = refusal(ceilings, profile.adapter);
  if (refused) return { status: "failed", exitCode: null, signal: null, error: refused, failureLog: refused, retry: false };
  // A prompt's retry continues on its branch (a GitHub project's clone fetches it).
  const known = prompt?.branch;
  const repoPath = project.repoKind === "github" ? await prepareGithubClone(project, known) : project.repoPath;
  if (!repoPath) throw new Error("the project has no repository path");

  const baseBranch = project.activeBranch ?? project.baseBranch;
  // One worktree per branch: a retry on the same branch continues in it.
  const pathOf = (b: string) => resolve(dataDir(), "worktrees", project.id, b.replaceAll("/", "_"));
  // A prompt's first run (or its first after a merge conflict) and a run of no prompt start a new
  // branch, on the fast path: in a ready worktree of the project's pool when one is at the base tip.
  const fresh = prompt ? runBranchName(prompt.number, prompt.title) : `ringmaster/${run.kind}-${run.id}`;
  const pool = projectPool(project.id);
  // A new branch's start walks the repository's shared parts beside its checkout, off its path.
  const share = known ? undefined : shareRunRepository(repoPath, fresh);
  // The worktree (git processes) and the run's token, prices and credentials (Postgres) do not
  // wait for each other, nor does the part of the sandbox that needs no worktree (its HOME, egress
  // proxy and MCP gateway, once the token is there); neither do the worktree's entry into the
  // sandbox and the run's start being recorded.
  const tokenMade = stages.timed("runToken", () => untilDb("token", () => createRunToken({ id: run.id, projectId: project.id, teamId: project.teamId }, settings.maxRunDurationMs + 10 * 60_000)));
  const shellMade = tokenMade.then((token) => stages.timed("sandboxShell", () => prepareRunSandbox({ settings, adapter: profile.adapter, token, log: (line) => log.push(line) })));
  const closeShell = () => shellMade.then((shell) => shell.close(), () => {});
  const [wt, token, prices, credentials] = await settleAll([
    stages.timed("checkout", async () => {
      // A new branch is made in its ref folder once that is the sandbox group's.
      await share?.branchFolder;
      const made = known
        ? await createWorktree({ repoPath, path: pathOf(known), branch: known, baseBranch })
        : await createFreshWorktree({ repoPath, name: fresh, baseBranch, pathOf, pool });
      // At once: a run that fails from here on leaves the branch to the prompt's next attempt.
      if (prompt && !prompt.branch) await untilDb("branch", () => recordPromptBranch(prompt.id, made.branch));
      return made;
    }),
    tokenMade,
    stages.timed("prices", () => untilDb("prices", () => teamPriceTable(project.teamId))),
    stages.timed("credentials", () => untilDb("credentials", () => credentialsForRun(project.teamId, profile.envAllowList))),
    shellMade,
  ] as const, { onFailure: closeShell });
  const branch = wt.branch;
  stages.mark("worktree");
  const childEnv = agentEnvironment({ allowList: profile.envAllowList, credentials, token, runId: run.id, projectId: project.id, promptId: prompt?.id ?? null });
  // The team's provider keys, the allow-listed variables named like secrets and the run's own
  // token never reach the log as they are.
  log.mask(runLogSecrets({ env: childEnv, passed: profile.envAllowList, credentials, token }));

  // The agent and the verify command run confined; we commit once the sandbox has ended.
  const opening = stages.timed("sandbox", async () => (await shellMade).enter({ worktree: wt.path, repoPath, preparedAs: wt.preparedAs, git: wt.git, repositoryShared: share?.shared }));
  const [, campaignText] = await settleAll([
    opening,
    stages.timed("record", async () => {
      const text = await campaignRunInput(run, prompt, wt.path, (line) => log.push(line));
      stages.mark("prepared");
      await untilDb("start", () => recordRunStarted(run.id, { branch, worktreePath: wt.path, baseSha: wt.baseSha }));
      await Promise.all([
        announce(project.teamId, { type: "agentsChange", projectId: project.id, runId: run.id, promptId: prompt?.id }),
        // The worker has the task: a lead's route (or verify) turn for this prompt or run is delivered.
        untilDb("route", () => advanceRoutes(prompt?.id ?? null, "delivered", run.id)),
      ]);
      stages.mark("started");
      return text;
    }),
  ] as const, { onFailure: closeShell });
  const sandbox = await opening;
  const adapter = supervisedAdapter(requireAdapter(profile.adapter), sandbox, process.execPath);
  stages.mark("sandbox");
  let outcome: RunOutcome;
  try {
    const written = await writeHomeConfig(sandbox, profile.adapter, childEnv);
    if (written) log.push(`[ringmaster] wrote ~/${written} in the run's HOME from the profile's variable`);
    const mcp = await wireMcp(sandbox, profile.adapter);
    // A lead run (the only kind with a thread) is given its conversation up to its own turn.
    const text = campaignText ?? (prompt ? `# Prompt ${prompt.number}: ${prompt.title}\n\n${prompt.body}`
      : run.threadId ? await untilDb("thread", () => leadPrompt(run.threadId!, run.threadSeq ?? 0, mcp.wired ? MCP_SERVER_NAME : null))
      : plannerPrompt(project.planningKey, mcp.wired));
    outcome = await runAgentAndVerify({
      runId: run.id, profile, settings, adapter, signal, log, env: { ...childEnv, ...mcp.env }, launch: sandbox.launch,
      onSpawn: () => {
        stages.mark("spawned");
        getLogger("runs").info({ runId: run.id, stages: stages.durations(), steps: stages.steps(), spawnedAt: Date.now(), pooledWorktree: wt.pooled ?? false }, "agent started");
        // The pool gets back what this run took, and the worker its ready sandbox networks, once
        // this worker has had no start in flight for a moment (off every run's start, a burst's too).
        startEnded();
        whenStartsSettle(() => {
          if (pool) refillPool({ projectId: project.id, repoPath, baseBranch, settings }, { create: true });
          refillSpareHolder();
        });
      },
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
  outcome = checkArchitectAnswer(run, outcome, (line) => log.push(line));
  if (outcome.status !== "succeeded" || run.kind === "lead" || isCampaignRun(run)) return outcome;
  const title = campaignCommitTitle(prompt) ?? (prompt ? `feat(prompt-${prompt.number}): ${prompt.title}` : `chore(${run.kind}): ${run.id}`);
  // The agent may have pointed its worktree's git link at another repository: nothing is committed there.
  await projectWorktreeGit(wt.path, repoPath);
  const commitSha = (await commitAll(wt.path, title, baseBranch))
    ?? ((await commitsAhead(repoPath, branch, baseBranch)) > 0 ? await headSha(wt.path) : null);
  if (commitSha) await recordRunDiff(run.id, wt.path, wt.baseSha, commitSha);
  return { ...outcome, commitSha };
}
