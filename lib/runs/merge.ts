import { getDb, type ProjectSettingsModel as ProjectSettings } from "@/lib/db";
import { recordAudit, SYSTEM } from "@/lib/audit/record";
import { inheritedProcessEnv } from "@/lib/env";
import { publishOutbox, recordOutbox } from "@/lib/queues";
import { resolve } from "node:path";
import { branchExists, branchSha, createWorktree, mergeIntoBase, rebaseOntoBase, removeWorktree } from "@/lib/git";
import { dataDir } from "@/lib/data-dir";
import { recordActivity } from "@/lib/activity/record";
import { announce } from "@/lib/events/publish";
import { failPromptAttempt, returnConflictedPrompt } from "@/lib/runs/finish-prompt";
import { runVerifyCommand } from "@/lib/runs/verify";
import { openRunSandbox, projectWorktreeGit, recordEgress } from "@/lib/runs/sandbox";
import { publishRun } from "@/lib/github/publish";
import { prepareGithubClone, remoteAuth } from "@/lib/github/repo";
import { fetchBranch } from "@/lib/git/push";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { refillPool } from "@/lib/runs/worktree-pool";

type MergeStatus = "merged" | "conflict" | "failed" | "skipped" | "pushed";

type Target = { id: string; adapter: string; worktreePath: string; branch: string };

// The verify command is project code: it runs in the run's sandbox like the agent did.
async function verifyConfined(run: Target, repoPath: string, settings: ProjectSettings, command: string) {
  let sandbox;
  try {
    sandbox = await openRunSandbox({ worktree: run.worktreePath, repoPath, settings, adapter: run.adapter, log: () => {} });
  } catch (err) {
    return { ok: false, output: (err as Error).message };
  }
  try {
    return await runVerifyCommand(command, run.worktreePath, inheritedProcessEnv(["PATH", "LANG"]), sandbox.launch);
  } finally {
    await recordEgress(run.id, await sandbox.close());
  }
}

async function integrate(run: Target, repoPath: string, baseBranch: string, settings: ProjectSettings | null) {
  // The rebase works in the agent's worktree: only while its git link is still the project's.
  const linked = await projectWorktreeGit(run.worktreePath, repoPath).then(() => null, (err: Error) => err.message);
  if (linked) return { status: "failed" as const, detail: linked };
  const rebased = await rebaseOntoBase(run.worktreePath, baseBranch);
  if (!rebased.ok) return { status: "conflict" as const, detail: `conflict in ${rebased.files.join(", ") || rebased.conflict}` };
  if (settings?.verifyCommand) {
    const v = await verifyConfined(run, repoPath, settings, settings.verifyCommand);
    if (!v.ok) return { status: "failed" as const, detail: `verify failed after rebase: ${v.output.slice(-500)}` };
  }
  const merged = await mergeIntoBase({ repoPath, branch: run.branch, baseBranch });
  // Someone moved the base between our rebase and the update: the job retries from the rebase.
  if (!merged.ok && merged.reason === "base moved") throw new Error("base branch moved during the merge");
  if (!merged.ok) return { status: "failed" as const, detail: merged.reason };
  return { status: "merged" as const, detail: merged.sha };
}

// A remote runner pushed its branch into the project's repository: the merge works on a
// worktree of that branch here, once the branch holds the commit the runner reported.
async function remoteWorktree(run: { id: string; projectId: string; branch: string; commitSha: string | null }, repoPath: string, baseBranch: string) {
  if (!run.commitSha || !(await branchExists(repoPath, run.branch)) || (await branchSha(repoPath, run.branch)) !== run.commitSha) return null;
  const path = resolve(dataDir(), "worktrees", run.projectId, run.branch.replaceAll("/", "_"));
  const wt = await createWorktree({ repoPath, path, branch: run.branch, baseBranch });
  await getDb().run.update({ where: { id: run.id }, data: { worktreePath: wt.path } });
  return wt.path;
}

async function fetchRemoteBranch(project: Parameters<typeof prepareGithubClone>[0], branch: string) {
  const path = await prepareGithubClone(project);
  await fetchBranch(path, branch, (await remoteAuth(project)).auth);
}

/**
 * The async merge queue of seed 003: rebase the run's branch onto the base, verify again,
 * fast-forward the base of a local repository, close the prompt, delete the worktree.
 * One merge per project at a time (an advisory lock); it never blocks the loop. Work that
 * no longer applies goes back to the queue to be redone from the new base.
 */
export async function mergeRun(runId: string): Promise<MergeStatus | null> {
  const db = getDb();
  const run = await db.run.findUnique({ where: { id: runId }, include: { project: { include: { settings: true } }, prompt: true } });
  if (!run || run.status !== "succeeded" || run.mergeStatus !== "pending" || !run.branch) return null;
  const { project } = run;
  if (!run.worktreePath && !run.remote) return null;
  // A GitHub project's work lands through a pull request: push the branch, open or update the PR.
  if (project.repoKind === "github") {
    // A remote runner pushed the branch to GitHub itself: the clone here takes it from there, so
    // the publish finds the commit the runner reported (its push is then a no-op) and opens the PR.
    if (run.remote) await fetchRemoteBranch(project, run.branch);
    return publishRun(runId);
  }
  if (!project.repoPath) {
    await db.run.update({ where: { id: runId }, data: { mergeStatus: "skipped" } });
    return "skipped";
  }
  const repoPath = project.repoPath;
  const baseBranch = project.activeBranch ?? project.baseBranch;
  const worktreePath = run.worktreePath ?? (await remoteWorktree({ ...run, branch: run.branch }, repoPath, baseBranch));
  if (!worktreePath) {
    await db.run.update({ where: { id: runId }, data: { mergeStatus: "failed", error: "the runner reported a commit its pushed branch does not hold" } });
    return "failed";
  }
  const target = { id: run.id, adapter: run.adapter, worktreePath, branch: run.branch };

  const result = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`merge:${project.id}`}))`;
    const outcome = await integrate(target, repoPath, baseBranch, project.settings);
    const now = new Date();
    await tx.run.update({ where: { id: runId }, data: { mergeStatus: outcome.status, error: outcome.status === "merged" ? null : outcome.detail, mergedSha: outcome.status === "merged" ? outcome.detail : undefined } });
    let prompt = run.prompt;
    if (prompt && outcome.status === "merged") {
      await changePromptStatus(prompt.id, { from: "in_progress", to: "done" }, tx, now);
      prompt = await tx.prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    } else if (prompt) {
      const detail = `Merge ${outcome.status}: ${outcome.detail}`;
      prompt = outcome.status === "conflict" ? await returnConflictedPrompt(tx, prompt.id, detail) : await failPromptAttempt(tx, prompt.id, detail);
      // The retry starts over from the current base on a fresh branch and worktree.
      await tx.prompt.update({ where: { id: prompt.id }, data: { branch: null } });
    }
    await recordAudit({ teamId: project.teamId, by: SYSTEM, action: `merge.${outcome.status}`, target: { type: "run", id: runId }, after: { branch: target.branch, detail: outcome.detail, promptStatus: prompt?.status } }, tx);
    const outbox = await recordOutbox(tx, [{ kind: "tick", projectId: project.id, reason: `merge ${outcome.status}` }]);
    return { outcome, prompt, outbox };
  }, { timeout: 20 * 60_000, maxWait: 20 * 60_000 });

  const { outcome, prompt, outbox } = result;
  const label = prompt ? `#${prompt.number} ${prompt.title}` : `run ${runId}`;
  const ids = { runId, promptId: run.promptId ?? undefined };
  if (outcome.status === "merged") {
    // The base moved: the project's ready worktrees are checked out at its new tip, in the background.
    if (project.settings) refillPool({ projectId: project.id, repoPath, baseBranch, settings: project.settings }, { create: false });
    await removeWorktree({ repoPath, path: target.worktreePath, branch: target.branch, baseBranch });
    await db.run.update({ where: { id: runId }, data: { worktreeGoneAt: new Date() } });
    await recordActivity(project, "taskCompleted", `${label}: merged into ${baseBranch} (${outcome.detail.slice(0, 7)})`, ids);
  } else {
    // Invariant 5: unmerged work is never deleted; its worktree and branch stay for inspection.
    const next = prompt?.status === "failed" ? "failed for good" : "back to the queue to be redone from the current base";
    const message = `${label}: merge ${outcome.status} (${outcome.detail}); ${next}; work kept at ${target.worktreePath}`;
    await recordActivity(project, "taskFailed", message, ids);
    await announce(project.teamId, { type: "error", projectId: project.id, ...ids, message });
  }
  await publishOutbox(outbox);
  return outcome.status;
}
