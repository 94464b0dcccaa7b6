import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { announce } from "@/lib/events/publish";
import { branchExists, git, runBranchName } from "@/lib/git";
import { createRunToken } from "@/lib/auth/tokens";
import { freshBranchName } from "@/lib/runs/run-branch";
import { budgetedCeilings, runCeilings, runWallTimeMs } from "@/lib/spend/ceilings";
import { teamPriceTable } from "@/lib/budgets/prices";
import { recordActivity } from "@/lib/activity/record";
import type { Claimed } from "@/lib/runners/claim";
import { triggerInstruction, type TriggerType } from "@/lib/runners/trigger-types";
import { leadPrompt } from "@/lib/threads/lead-run";
import { MCP_SERVER_NAME, mcpWiring } from "@/lib/agents/mcp-config";
import { runnerGitToken, repoGitUrl } from "@/lib/github/repo";

export const promptText = (p: { number: number; title: string; body: string }) => `# Prompt ${p.number}: ${p.title}\n\n${p.body}`;

/**
 * Where a runner fetches the project and pushes its branch: GitHub's repository by its URL; a
 * repository that is a path on the server is one no other machine can reach, so its runs are
 * handed out and back as git bundles over the runner API (lib/runners/bundle.ts).
 */
function repoSource(project: { repoKind: string; repoPath: string | null; githubOwner: string | null; githubRepo: string | null }, runId: string) {
  if (project.repoKind === "github" && project.githubOwner && project.githubRepo) return { repoUrl: repoGitUrl(project.githubOwner, project.githubRepo), bundlePath: null };
  return { repoUrl: null, bundlePath: project.repoPath ? `/api/runner/runs/${runId}/bundle` : null };
}

/**
 * The base branch's commit when the project's repository is local to the server (its runs go out
 * as bundles): a runner that already has that commit skips the bundle. None for a retry whose
 * branch the server holds, which the runner must fetch to continue.
 */
async function localBaseSha(project: { repoKind: string; repoPath: string | null }, baseBranch: string, retriedBranch: string | null): Promise<string | null> {
  if (project.repoKind === "github" || !project.repoPath) return null;
  if (retriedBranch && (await branchExists(project.repoPath, retriedBranch))) return null;
  return (await git(project.repoPath, ["rev-parse", "--verify", "--quiet", `refs/heads/${baseBranch}^{commit}`]).catch(() => "")).trim() || null;
}

/**
 * The credential a runner fetches and pushes a GitHub project's repository with, minted when the
 * run is handed out (for an app, an installation token for this repository's contents only, which
 * lives an hour; a personal access token as it is). It travels only
 * in the trigger; the runner gives it to git as an HTTP header through the environment.
 */
async function githubPushToken(project: Parameters<typeof runnerGitToken>[0] & { repoKind: string }): Promise<string | null> {
  if (project.repoKind !== "github") return null;
  return runnerGitToken(project);
}

/** What a conversation run is told: why it woke, the worker's outcome if that is why, then the thread. */
async function conversationText(type: TriggerType, run: { threadId: string; threadSeq: number | null; adapter: string }, finishedRunId?: string): Promise<{ instruction: string; text: string }> {
  // The runner wires the agent's CLI to the MCP endpoint wherever the CLI can be (runner/sandbox.ts).
  const thread = await leadPrompt(run.threadId, run.threadSeq ?? 0, mcpWiring(run.adapter, "", "") ? MCP_SERVER_NAME : null);
  if (!finishedRunId) {
    const instruction = triggerInstruction(type, run.threadId);
    return { instruction, text: `${instruction}.\n\n${thread}` };
  }
  const done = await getDb().run.findUniqueOrThrow({ where: { id: finishedRunId }, select: { id: true, status: true, error: true, summary: true, commitSha: true, promptId: true } });
  const instruction = triggerInstruction(type, done.promptId ?? done.id);
  const ended = `Run ${done.id} ended ${done.status}${done.error ? `: ${done.error}` : ""}${done.commitSha ? ` (commit ${done.commitSha.slice(0, 7)})` : ""}.`;
  return { instruction, text: [`${instruction}.`, ended, done.summary ? `Its summary:\n${done.summary}` : null, thread].filter((l) => l !== null).join("\n\n") };
}

/**
 * The trigger a runner receives for a run it now holds: the prompt, the repository, the
 * branch to push, the agent to run and a run-scoped token. The run moves to `running` here,
 * with its branch fixed (a retry continues the prompt's branch).
 */
async function runTrigger(type: TriggerType, runId: string, finishedRunId?: string) {
  const db = getDb();
  const env = getEnv();
  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, include: { project: { include: { settings: true } }, prompt: true, agentProfile: true } });
  const { project, prompt, agentProfile: profile } = run;
  const settings = { ...project.settings!, maxRunDurationMs: runWallTimeMs(profile, project.settings!) };
  const baseBranch = project.activeBranch ?? project.baseBranch;
  const wanted = prompt ? runBranchName(prompt.number, prompt.title) : `ringmaster/${run.kind}-${run.id}`;
  const branch = prompt?.branch ?? (project.repoPath && prompt ? await freshBranchName(project.repoPath, wanted) : wanted);
  await Promise.all([
    prompt && !prompt.branch ? db.prompt.update({ where: { id: prompt.id }, data: { branch } }) : null,
    db.run.update({ where: { id: run.id }, data: { status: "running", startedAt: new Date(), branch } }),
  ]);
  // The runner enforces these from its agent's live output with the same guard as a worker.
  const { ceilings, costLimit } = budgetedCeilings(runCeilings(profile ?? { maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null }, settings), run.reservedUsd);
  // Independent of each other: asked at once, since the runner's agent waits for the answer.
  const [prices, token, baseSha, talk, , , gitToken] = await Promise.all([
    teamPriceTable(project.teamId),
    createRunToken({ id: run.id, projectId: project.id, teamId: project.teamId }, settings.maxRunDurationMs + 10 * 60_000),
    localBaseSha(project, baseBranch, prompt?.branch ?? null),
    run.threadId ? conversationText(type, { threadId: run.threadId, threadSeq: run.threadSeq, adapter: run.adapter }, finishedRunId) : null,
    announce(project.teamId, { type: "agentsChange", projectId: project.id, runId: run.id, promptId: prompt?.id }),
    prompt ? recordActivity(project, "taskAssigned", `#${prompt.number} ${prompt.title}: run ${run.id} started on a remote runner`, { runId: run.id, promptId: prompt.id }) : null,
    githubPushToken(project),
  ]);
  const limits = { ceilings, costLimit, prices, loops: { repeatLimit: settings.loopRepeatLimit, failureLimit: settings.loopFailureLimit } };
  return {
    type,
    instruction: talk?.instruction ?? triggerInstruction(type, prompt?.id ?? run.id),
    run: {
      id: run.id, kind: run.kind, attempt: run.attempt, promptId: prompt?.id ?? null, threadId: run.threadId,
      prompt: talk?.text ?? (prompt ? promptText(prompt) : ""),
      project: { id: project.id, name: project.name },
      ...repoSource(project, run.id), gitToken, baseBranch, baseSha, branch,
      adapter: run.adapter, model: run.model,
      commandTemplate: profile?.commandTemplate ?? null, extraArgs: profile?.extraArgs ?? [], permissionMode: profile?.permissionMode ?? null, completionSignal: profile?.completionSignal ?? null,
      maxRunDurationMs: settings.maxRunDurationMs, verifyCommand: settings.verifyCommand, limits,
      token, leaseTtlMs: env.LEASE_TTL_MS, heartbeatMs: env.LEASE_RENEW_MS,
    },
  };
}

async function offerTrigger(offerId: string) {
  const offer = await getDb().taskOffer.findUniqueOrThrow({ where: { id: offerId }, include: { prompt: { include: { project: true } } } });
  const { prompt } = offer;
  return {
    type: "task_offered" as const,
    instruction: triggerInstruction("task_offered", prompt.id),
    offer: {
      id: offer.id, expiresAt: offer.expiresAt, promptId: prompt.id, prompt: promptText(prompt), domain: prompt.domain,
      project: { id: prompt.project.id, name: prompt.project.name },
    },
  };
}

export type Trigger = Awaited<ReturnType<typeof runTrigger>> | Awaited<ReturnType<typeof offerTrigger>>;

export function describeTrigger(claimed: Claimed): Promise<Trigger> {
  if (claimed.type === "task_offered") return offerTrigger(claimed.offerId);
  return runTrigger(claimed.type, claimed.runId, "finishedRunId" in claimed ? claimed.finishedRunId : undefined);
}
