import { getDb } from "@/lib/db";
import { pushBranch } from "@/lib/git/push";
import type { GithubClient } from "@/lib/github/client";
import { applyPullState } from "@/lib/github/pull-state";
import { clonePath, remoteAuth } from "@/lib/github/repo";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { commitChange } from "@/lib/activity/change";

type PublishStatus = "pushed" | "skipped";

async function loadRun(runId: string) {
  return getDb().run.findUnique({ where: { id: runId }, include: { project: { include: { settings: true } }, prompt: true } });
}
type LoadedRun = NonNullable<Awaited<ReturnType<typeof loadRun>>>;

function pullText(run: LoadedRun) {
  const p = run.prompt;
  const title = p ? `Prompt ${p.number}: ${p.title}` : `${run.kind} run ${run.id}`;
  const body = [
    p ? p.body.trim() : "",
    run.summary ? `### Agent summary\n\n${run.summary.trim()}` : "",
    blockedHostsSection(run.egress),
    `---\nOpened by Ringmaster for ${p ? `prompt ${p.number} (\`${p.id}\`)` : `run \`${run.id}\``}.`,
  ].filter(Boolean).join("\n\n");
  return { title: title.slice(0, 250), body: body.slice(0, 60_000) };
}

// Reviewers see what the agent tried to reach and was refused: a sign of a confused or hijacked agent.
function blockedHostsSection(egress: unknown): string {
  const blocked = Object.entries((egress as { blocked?: Record<string, number> } | null)?.blocked ?? {});
  if (blocked.length === 0) return "";
  const lines = blocked.sort(([a], [b]) => a.localeCompare(b)).map(([host, n]) => `- \`${host}\` (${n}×)`);
  return `### Blocked network requests\n\nThe agent's sandbox refused these hosts, which its project does not allow:\n\n${lines.join("\n")}`;
}

// At least once: a retried job finds the PR GitHub already has for the branch instead of a second one.
async function openPull(client: GithubClient, o: { owner: string; repo: string; head: string; base: string; title: string; body: string }) {
  try {
    return (await client.rest.pulls.create(o)).data;
  } catch (err) {
    if ((err as { status?: number }).status !== 422) throw err;
    const [existing] = (await client.rest.pulls.list({ owner: o.owner, repo: o.repo, head: `${o.owner}:${o.head}`, state: "open" })).data;
    if (!existing) throw err;
    return existing;
  }
}

/**
 * The GitHub side of the merge queue: push the run's branch and open its pull request (or
 * update the open one). Never pushes to the branch of a merged or closed PR: that work goes
 * back to the queue to start on a new branch. After a fix, asks the reviewer for a new review.
 */
export async function publishRun(runId: string): Promise<PublishStatus | null> {
  const db = getDb();
  const run = await loadRun(runId);
  if (!run || run.status !== "succeeded" || run.mergeStatus !== "pending" || !run.branch) return null;
  const { project, prompt } = run;
  const baseBranch = project.activeBranch ?? project.baseBranch;
  const { client, auth, owner, repo } = await remoteAuth(project);

  let pr = await db.pullRequest.findFirst({ where: { projectId: project.id, headBranch: run.branch }, orderBy: { createdAt: "desc" } });
  if (pr?.state === "open") {
    // The row may lag behind GitHub (a missed webhook): ask before pushing.
    const live = (await client.rest.pulls.get({ owner, repo, pull_number: pr.number })).data;
    await applyPullState(project.id, live);
    pr = await db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } });
  }
  if (pr && pr.state !== "open") {
    const closed = pr;
    await commitChange(project, async (tx) => {
      await tx.run.update({ where: { id: runId }, data: { mergeStatus: "skipped", pullRequestId: closed.id, error: `PR #${closed.number} is ${closed.state}: nothing is pushed to its branch` } });
      // The PR's new state may just have closed the prompt (applyPullState above): it is redone anyway.
      if (prompt?.status === "in_progress") {
        await changePromptStatus(prompt.id, { from: ["in_progress", "done", "cancelled"], to: "pending", data: { branch: null } }, tx);
      }
    }, () => ({
      activity: ["activity", `PR #${closed.number} is already ${closed.state}: the new work on ${run.branch} was not pushed${prompt?.status === "in_progress" ? `; #${prompt.number} starts again on a new branch` : ""}`, { runId, promptId: prompt?.id }],
      nudge: "follow-up after a closed PR",
    }));
    return "skipped";
  }

  const headSha = await pushBranch({ repoPath: clonePath(project.id), branch: run.branch, baseBranch, auth });
  if (!pr) {
    const opened = await openPull(client, { owner, repo, head: run.branch, base: baseBranch, ...pullText(run) });
    pr = await db.pullRequest.upsert({
      where: { projectId_number: { projectId: project.id, number: opened.number } },
      create: { projectId: project.id, promptId: prompt?.id, number: opened.number, url: opened.html_url, headBranch: run.branch, baseBranch, headSha },
      update: { headSha },
    });
  } else {
    await db.pullRequest.update({ where: { id: pr.id }, data: { headSha, checksState: null } });
  }
  const isFix = run.kind === "reviewer_fix" || prompt?.origin === "review";
  if (isFix) {
    await client.rest.issues.createComment({ owner, repo, issue_number: pr.number, body: project.settings!.rerunComment });
    await db.pullRequest.update({ where: { id: pr.id }, data: { lastReviewRunTime: new Date() } });
  }
  const pushed = pr;
  const label = prompt ? `#${prompt.number} ${prompt.title}` : `run ${runId}`;
  await commitChange(project, async (tx) => {
    await tx.run.update({ where: { id: runId }, data: { mergeStatus: "pushed", pullRequestId: pushed.id, error: null } });
    // A fix is done once pushed; the original prompt stays in progress until its PR merges.
    if (isFix && prompt) await changePromptStatus(prompt.id, { from: "in_progress", to: "done" }, tx);
  }, () => ({ activity: ["runChange", `${label}: pushed ${headSha.slice(0, 7)} to PR #${pushed.number}${isFix ? "; new review requested" : ""}`, { runId, promptId: prompt?.id }], nudge: "pushed" }));
  return "pushed";
}
