import { existsSync, writeFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { dataDir } from "@/lib/data-dir";
import { fillPool, git } from "@/lib/git";
import { mergeRun } from "@/lib/runs/merge";
import { poolDir, poolFillsSettled } from "@/lib/runs/worktree-pool";
import { awaitingMerge, BRANCH, onBranch } from "./helpers/merge";
import { activity, announced, audits, emptyQueues, queuedJobs } from "./helpers/runs";

beforeEach(emptyQueues);

describe("the merge queue (seed 003)", () => {
  it("lands the run's work on the base branch, closes the prompt and removes the worktree", async () => {
    const { team, project, prompt, run, path, repoPath } = await awaitingMerge();
    const [acts, audit] = [await activity(project.id), await audits(team.id)];
    expect(await mergeRun(run.id)).toBe("merged");

    const mainSha = (await git(repoPath, ["rev-parse", "main"])).trim();
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ mergeStatus: "merged", error: null });
    const done = await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    expect(done).toMatchObject({ status: "done", attempts: 0 });
    expect(done.completedAt).toBeInstanceOf(Date);
    expect(await onBranch(repoPath, "main", "shared.txt")).toBe("from the run");
    expect(existsSync(path)).toBe(false);
    expect((await audits(team.id)).slice(audit.length)).toEqual([
      { action: "merge.merged", actorType: "system", targetType: "run", targetId: run.id, before: null, after: { branch: BRANCH, detail: mainSha, promptStatus: "done" } },
    ]);
    expect((await activity(project.id)).slice(acts.length)).toEqual([
      { type: "taskCompleted", message: `#4 Add search: merged into main (${mainSha.slice(0, 7)})`, data: { runId: run.id, promptId: prompt.id } },
    ]);
    expect(await queuedJobs("tick")).toEqual([[expect.any(String), { projectId: project.id, reason: "merge merged" }]]);
    // A replayed merge job finds nothing left to do.
    expect(await mergeRun(run.id)).toBeNull();
    // A project with no worktree pool gets none from a merge.
    await poolFillsSettled();
    expect(existsSync(poolDir(project.id))).toBe(false);
  });

  it("refreshes the project's worktree pool at the base's new tip", async () => {
    const { project, run, repoPath } = await awaitingMerge();
    const pool = poolDir(project.id);
    expect(await fillPool({ repoPath, pool, baseBranch: "main", size: 2 })).toEqual({ added: 2, refreshed: 0, removed: 0 });
    expect(await mergeRun(run.id)).toBe("merged");
    await poolFillsSettled();
    const tip = (await git(repoPath, ["rev-parse", "main"])).trim();
    expect((await readdir(join(pool, "ready"))).map((name) => name.slice(0, 40))).toEqual([tip, tip]);
  });

  it("sends work that no longer applies back to the queue from a fresh branch, keeping the worktree (invariant 5)", async () => {
    const { team, project, prompt, run, path, repoPath } = await awaitingMerge();
    writeFileSync(join(repoPath, "shared.txt"), "someone else\n");
    await git(repoPath, ["add", "shared.txt"]);
    await git(repoPath, ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "meanwhile"]);
    const acts = await activity(project.id);

    expect(await mergeRun(run.id)).toBe("conflict");
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ mergeStatus: "conflict", error: "conflict in shared.txt", mergedSha: null });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } }))
      // A conflict is not the prompt's failure: no attempt spent, no backoff.
      .toMatchObject({ status: "pending", attempts: 0, retryAt: null, branch: null, failureLog: "Merge conflict: conflict in shared.txt" });
    expect(existsSync(path)).toBe(true);
    expect(await onBranch(repoPath, "main", "shared.txt")).toBe("someone else");
    expect((await audits(team.id)).at(-1)).toMatchObject({ action: "merge.conflict", after: { branch: BRANCH, detail: "conflict in shared.txt", promptStatus: "pending" } });
    expect((await activity(project.id)).slice(acts.length)).toEqual([{
      type: "taskFailed", data: { runId: run.id, promptId: prompt.id },
      message: `#4 Add search: merge conflict (conflict in shared.txt); back to the queue to be redone from the current base; work kept at ${path}`,
    }]);
    expect(await queuedJobs("tick")).toEqual([[expect.any(String), { projectId: project.id, reason: "merge conflict" }]]);
    expect((await announced(team.id)).filter((e) => e.type === "error")).toEqual([{
      type: "error", projectId: project.id, runId: run.id, promptId: prompt.id,
      message: `#4 Add search: merge conflict (conflict in shared.txt); back to the queue to be redone from the current base; work kept at ${path}`,
    }]);
  });

  it("rebases work whose base only moved and verifies it again, without re-running the agent", async () => {
    const { project, prompt, run, repoPath } = await awaitingMerge();
    writeFileSync(join(repoPath, "unrelated.txt"), "someone else\n");
    await git(repoPath, ["add", "unrelated.txt"]);
    await git(repoPath, ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "meanwhile"]);
    // The verify sees the rebased tree: both the run's file and the base's new one.
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { verifyCommand: "test -f shared.txt && test -f unrelated.txt" } });
    expect(await mergeRun(run.id)).toBe("merged");
    expect(await onBranch(repoPath, "main", "shared.txt")).toBe("from the run");
    expect(await onBranch(repoPath, "main", "unrelated.txt")).toBe("someone else");
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ status: "done", attempts: 0 });
    expect(await getDb().run.count({ where: { promptId: prompt.id } })).toBe(1);
    expect(await queuedJobs("spawn")).toEqual([]);
  });

  it("conflicts have their own cap: the fifth conflict fails the prompt, still without spending an attempt", async () => {
    const { project, profile, prompt, run, repoPath } = await awaitingMerge();
    await getDb().run.createMany({ data: Array.from({ length: 4 }, () => ({
      projectId: project.id, promptId: prompt.id, kind: "executor" as const, status: "succeeded" as const, adapter: "demo", agentProfileId: profile.id, mergeStatus: "conflict",
    })) });
    writeFileSync(join(repoPath, "shared.txt"), "someone else\n");
    await git(repoPath, ["add", "shared.txt"]);
    await git(repoPath, ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "meanwhile"]);
    expect(await mergeRun(run.id)).toBe("conflict");
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({
      status: "failed", attempts: 0, failureLog: "its work conflicted with the base 5 times; last: Merge conflict: conflict in shared.txt",
    });
  });

  it("verifies again after the rebase: a failing verify fails the merge (for good on the last attempt)", async () => {
    const { project, prompt, run, path, repoPath } = await awaitingMerge("x\n", { maxAttempts: 1 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { verifyCommand: "echo checking; echo broken >&2; exit 1" } });
    const acts = await activity(project.id);
    expect(await mergeRun(run.id)).toBe("failed");
    const error = "verify failed after rebase: checking\nbroken\n";
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ mergeStatus: "failed", error });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ status: "failed", attempts: 1 });
    expect(await onBranch(repoPath, "main", "shared.txt")).toBeNull();
    expect((await activity(project.id)).slice(acts.length).map((a) => a.message))
      .toEqual([`#4 Add search: merge failed (${error}); failed for good; work kept at ${path}`]);
  });

  it("merges when the verify command passes, into the project's active branch", async () => {
    const { project, run, repoPath } = await awaitingMerge();
    await git(repoPath, ["branch", "release", "main"]);
    await getDb().project.update({ where: { id: project.id }, data: { activeBranch: "release" } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { verifyCommand: "test -f shared.txt" } });
    expect(await mergeRun(run.id)).toBe("merged");
    expect(await onBranch(repoPath, "release", "shared.txt")).toBe("from the run");
    expect(await onBranch(repoPath, "main", "shared.txt")).toBeNull();
  });

  it("does nothing for a run that is unknown, not succeeded, not awaiting a merge or without its worktree", async () => {
    const { run, prompt } = await awaitingMerge();
    expect(await mergeRun("no-such-run")).toBeNull();
    for (const data of [{ status: "failed" as const }, { mergeStatus: "skipped" }, { branch: null }, { worktreePath: null }]) {
      await getDb().run.update({ where: { id: run.id }, data: { status: "succeeded", mergeStatus: "pending", branch: BRANCH, worktreePath: run.worktreePath, ...data } });
      expect(await mergeRun(run.id)).toBeNull();
    }
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("in_progress");
  });

  it("names every conflicting file; a run without a prompt is merged or refused without one", async () => {
    const { project, run, path, repoPath } = await awaitingMerge();
    writeFileSync(join(path, "other.txt"), "run\n");
    await git(path, ["add", "-A"]);
    await git(path, ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--amend", "--no-edit"]);
    for (const f of ["shared.txt", "other.txt"]) writeFileSync(join(repoPath, f), "someone else\n");
    await git(repoPath, ["add", "-A"]);
    await git(repoPath, ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "meanwhile"]);
    await getDb().run.update({ where: { id: run.id }, data: { promptId: null } });
    expect(await mergeRun(run.id)).toBe("conflict");
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).error).toBe("conflict in other.txt, shared.txt");
    expect((await activity(project.id)).at(-1)!.message).toMatch(new RegExp(`^run ${run.id}: merge conflict \\(conflict in other.txt, shared.txt\\); back to the queue`));
  });

  it("keeps the last 500 characters of a failing verify, run with PATH, HOME and LANG", async () => {
    const { project, run } = await awaitingMerge();
    process.env.LANG ??= "C.UTF-8";
    const check = 'test -n "$PATH" && test -n "$HOME" && test -n "$LANG" || { echo missing-env; exit 1; }';
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { verifyCommand: `${check}; printf 'a%.0s' $(seq 1 600); echo; echo end; exit 1` } });
    expect(await mergeRun(run.id)).toBe("failed");
    const output = `${"a".repeat(600)}\nend\n`;
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).error).toBe(`verify failed after rebase: ${output.slice(-500)}`);
  });

  it("hands a GitHub project's merge to its pull request", async () => {
    const { project, run } = await awaitingMerge();
    await getDb().project.update({ where: { id: project.id }, data: { repoKind: "github", githubOwner: "acme", githubRepo: "w" } });
    await expect(mergeRun(run.id)).rejects.toThrow("acme/w has no GitHub connection: connect it in the project settings");
  });

  it("skips the merge of a project without a local repository path", async () => {
    const { project, run } = await awaitingMerge();
    await getDb().project.update({ where: { id: project.id }, data: { repoPath: null } });
    expect(await mergeRun(run.id)).toBe("skipped");
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).mergeStatus).toBe("skipped");
  });

  it("merges a remote runner's pushed branch from a worktree it makes here, once the branch holds the reported commit", async () => {
    const { project, prompt, run, path, repoPath } = await awaitingMerge();
    // The runner pushed the branch into the repository; no worktree of it exists on this machine.
    await git(repoPath, ["worktree", "remove", "--force", path]);
    await getDb().run.update({ where: { id: run.id }, data: { remote: true, worktreePath: null } });
    expect(await mergeRun(run.id)).toBe("merged");
    const here = resolve(dataDir(), "worktrees", project.id, "ringmaster_4-add-search");
    const merged = await getDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(merged).toMatchObject({ mergeStatus: "merged", error: null, worktreePath: here, mergedSha: (await git(repoPath, ["rev-parse", "main"])).trim() });
    expect(merged.worktreeGoneAt).toBeInstanceOf(Date);
    expect(existsSync(here)).toBe(false);
    expect(await onBranch(repoPath, "main", "shared.txt")).toBe("from the run");
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("done");
  });

  it("fails a remote run whose pushed branch is missing or does not hold the commit it reported, leaving its prompt alone", async () => {
    const { prompt, run, path, repoPath } = await awaitingMerge();
    await git(repoPath, ["worktree", "remove", "--force", path]);
    const mainSha = (await git(repoPath, ["rev-parse", "main"])).trim();
    for (const data of [{ commitSha: mainSha }, { commitSha: null }, { branch: "ringmaster/never-pushed" }]) {
      await getDb().run.update({ where: { id: run.id }, data: { remote: true, worktreePath: null, mergeStatus: "pending", error: null, branch: BRANCH, commitSha: run.commitSha, ...data } });
      expect(await mergeRun(run.id)).toBe("failed");
      expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
        mergeStatus: "failed", error: "the runner reported a commit its pushed branch does not hold", worktreePath: null,
      });
    }
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ status: "in_progress", attempts: 0, branch: BRANCH });
    expect(await onBranch(repoPath, "main", "shared.txt")).toBeNull();
  });
});
