import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { applyPullState } from "@/lib/github/pull-state";
import { claimPromptForRun } from "@/lib/runs/claim";
import { tickAndRun } from "./helpers/run-once";
import { addPrompt } from "./helpers/fixtures";
import { createGithubProject, startGithubDouble } from "./helpers/github-fixtures";
import type { GithubDouble } from "./helpers/github-double";

const double: GithubDouble = await startGithubDouble();
afterAll(() => double.stop());

// With pull requests the merge that puts a run's work on the base branch is the PR's, on GitHub.
describe("Parallel off on a GitHub project: the next run starts from a base that holds the previous PR", () => {
  it("waits for the open PR to merge, then starts on top of it", async () => {
    const { project, profile, fullName } = await createGithubProject(double);
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { parallelEnabled: false } });
    await addPrompt(project.id, { number: 1, title: "First", body: "```file first.txt\none\n```" });
    await addPrompt(project.id, { number: 2, title: "Second", body: "```file second.txt\ntwo\n```" });

    const first = await tickAndRun(project.id);
    expect(first.run).toMatchObject({ status: "succeeded", mergeStatus: "pushed", prompt: { number: 1, status: "in_progress" } });
    const pr = await getDb().pullRequest.findFirstOrThrow({ where: { projectId: project.id } });

    // The PR is open: the one slot stays held, and the page says for what.
    const waiting = await tickAndRun(project.id);
    expect(waiting.run).toBeNull();
    expect(waiting.tick).toMatchObject({ skipped: false, decision: {
      kind: "awaiting_merge", promptNumber: null, mergesPending: 1,
      message: `Waiting for PR #${pr.number} to merge: Parallel is off, so the next run starts from a base that has it (turn Parallel on to work ahead)`,
    } });
    // A claim racing the tick re-checks the same rule under its lock.
    const second = await getDb().prompt.findFirstOrThrow({ where: { projectId: project.id, number: 2 } });
    const racing = await claimPromptForRun({
      projectId: project.id, promptId: second.id, profile, routing: null, now: new Date(),
      limits: { maxExecutors: 1, cooldownMs: 0, mergesHoldSlot: true },
    });
    expect(racing).toBeNull();
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: second.id } })).toMatchObject({ status: "pending" });

    // Someone merges the PR on GitHub (a fast-forward of main), and Ringmaster learns of it.
    const bare = join(double.remotesRoot, "acme", `${fullName.split("/")[1]}.git`);
    const merged = double.headSha(fullName, pr.headBranch);
    execFileSync("git", ["update-ref", "refs/heads/main", merged], { cwd: bare });
    expect(await applyPullState(project.id, { number: pr.number, state: "closed", merged: true, head: { sha: merged, ref: pr.headBranch } })).toBe("merged");

    const next = await tickAndRun(project.id);
    expect(next.run).toMatchObject({ status: "succeeded", mergeStatus: "pushed", baseSha: merged, prompt: { number: 2 } });
    expect(await getDb().prompt.findFirstOrThrow({ where: { projectId: project.id, number: 1 } })).toMatchObject({ status: "done" });
  }, 120_000);

  it("with Parallel on, an open PR holds no slot", async () => {
    const { project } = await createGithubProject(double);
    await addPrompt(project.id, { number: 1, title: "First", body: "```file first.txt\none\n```" });
    await addPrompt(project.id, { number: 2, title: "Second", body: "```file second.txt\ntwo\n```" });
    expect((await tickAndRun(project.id)).run).toMatchObject({ mergeStatus: "pushed", prompt: { number: 1 } });
    expect((await tickAndRun(project.id)).run).toMatchObject({ mergeStatus: "pushed", prompt: { number: 2 } });
  }, 120_000);
});
