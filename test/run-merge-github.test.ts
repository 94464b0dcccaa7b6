import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getDb, type ProjectModel } from "@/lib/db";
import { commitAll, createWorktree } from "@/lib/git";
import { clonePath, prepareGithubClone } from "@/lib/github/repo";
import { mergeRun } from "@/lib/runs/merge";
import { addPrompt } from "./helpers/fixtures";
import { createGithubProject, PAT, startGithubDouble } from "./helpers/github-fixtures";
import { startGitHttp } from "./helpers/git-http";
import { emptyQueues } from "./helpers/runs";

// GitHub's REST API and its git endpoint (smart HTTP by `git http-backend`), both doubles.
const double = await startGithubDouble();
const gitHttp = await startGitHttp(double.remotesRoot, PAT);
process.env.GITHUB_GIT_URL = `${gitHttp.url}/{owner}/{repo}.git`;
afterAll(async () => { await gitHttp.stop(); await double.stop(); });
beforeEach(emptyQueues);

const BRANCH = "ringmaster/1-add-docs";
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8" }).trim();
const fetches = () => gitHttp.requests.filter((r) => r.service === "git-upload-pack" && r.method === "POST").length;

type Made = { worktreePath: string | null; remote: boolean; commitSha: string };

/** A GitHub project with prompt #1 in progress on BRANCH and a succeeded run of it, made by `make`, waiting for its merge. */
async function githubRunAwaitingMerge(make: (project: ProjectModel, remote: string) => Promise<Made>) {
  const { project, profile, fullName } = await createGithubProject(double);
  const remote = join(double.remotesRoot, `${fullName}.git`);
  const added = await addPrompt(project.id, { number: 1, title: "Add docs", body: "Write the docs." });
  const prompt = await getDb().prompt.update({ where: { id: added.id }, data: { status: "in_progress", branch: BRANCH } });
  // Re-read: the connection was added after the project was made.
  const made = await make(await getDb().project.findUniqueOrThrow({ where: { id: project.id } }), remote);
  const run = await getDb().run.create({
    data: {
      projectId: project.id, promptId: prompt.id, kind: "executor", status: "succeeded", adapter: "demo", agentProfileId: profile.id,
      branch: BRANCH, mergeStatus: "pending", finishedAt: new Date(), ...made,
    },
  });
  return { project, prompt, run, fullName, remote };
}

describe("the merge queue on a GitHub project", () => {
  it("takes a remote runner's branch from GitHub into the server's clone and opens its pull request at the runner's commit", async () => {
    const { project, prompt, run, fullName } = await githubRunAwaitingMerge(async (_, remote) => {
      // The runner's own machine: a clone of the GitHub repository, whose branch it pushed there.
      const box = join(mkdtempSync(join(tmpdir(), "rm-runner-")), "repo");
      execFileSync("git", ["clone", "-q", remote, box]);
      git(box, "switch", "-q", "-c", BRANCH);
      writeFileSync(join(box, "docs.txt"), "from a runner\n");
      git(box, "add", "docs.txt");
      git(box, "-c", "user.name=runner", "-c", "user.email=runner@example.test", "commit", "-q", "-m", "P1 Add docs");
      git(box, "push", "-q", "origin", BRANCH);
      return { worktreePath: null, remote: true, commitSha: git(box, "rev-parse", "HEAD") };
    });
    const before = fetches();

    expect(await mergeRun(run.id)).toBe("pushed");
    // Fetched over GitHub's git endpoint, with the connection's token.
    expect(fetches()).toBeGreaterThan(before);
    expect(gitHttp.requests.filter((r) => !r.authorized)).toEqual([]);
    expect(git(clonePath(project.id), "rev-parse", `refs/heads/${BRANCH}`)).toBe(run.commitSha);
    const opened = double.calls("POST", `/repos/${fullName}/pulls`).map((c) => c.body as { head: string; base: string });
    expect(opened.map((b) => [b.head, b.base])).toEqual([[BRANCH, "main"]]);
    const pr = await getDb().pullRequest.findFirstOrThrow({ where: { projectId: project.id } });
    expect(pr).toMatchObject({ headBranch: BRANCH, baseBranch: "main", headSha: run.commitSha, promptId: prompt.id });
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ mergeStatus: "pushed", error: null, pullRequestId: pr.id });
    // The prompt stays in progress until its pull request merges.
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("in_progress");
  });

  it("pushes a run of this machine from the server's clone without fetching its branch from GitHub", async () => {
    const { project, run, remote } = await githubRunAwaitingMerge(async (project) => {
      const clone = await prepareGithubClone(project, BRANCH);
      const path = join(mkdtempSync(join(tmpdir(), "rm-wt-")), "wt");
      await createWorktree({ repoPath: clone, path, branch: BRANCH, baseBranch: "main" });
      writeFileSync(join(path, "docs.txt"), "from this machine\n");
      return { worktreePath: path, remote: false, commitSha: (await commitAll(path, "P1 Add docs", "main"))! };
    });
    const before = fetches();

    expect(await mergeRun(run.id)).toBe("pushed");
    expect(fetches()).toBe(before);
    expect(git(remote, "rev-parse", `refs/heads/${BRANCH}`)).toBe(run.commitSha);
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ mergeStatus: "pushed", error: null });
    expect(await getDb().pullRequest.count({ where: { projectId: project.id, headBranch: BRANCH, headSha: run.commitSha } })).toBe(1);
  });
});
