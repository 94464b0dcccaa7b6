import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { mergeRun } from "@/lib/runs/merge";
import { closeRunnerWake } from "@/lib/runners/wake";
import { addPrompt, waitUntil } from "./helpers/fixtures";
import { createGithubProject, PAT, startGithubDouble } from "./helpers/github-fixtures";
import { startGitHttp } from "./helpers/git-http";
import { runnerToken } from "./helpers/runners";
import { startRunnerApi, startRunnerProcess } from "./helpers/runner-http";

// GitHub's REST API and its git endpoint (smart HTTP by `git http-backend`), both doubles.
const double = await startGithubDouble();
const gitHttp = await startGitHttp(double.remotesRoot, PAT);
process.env.GITHUB_GIT_URL = `${gitHttp.url}/{owner}/{repo}.git`;
const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => { for (const stop of stops.splice(0).reverse()) await stop(); });
afterAll(async () => { await closeRunnerWake(); await gitHttp.stop(); await double.stop(); });

describe("a remote runner on a GitHub project", () => {
  it("pushes its branch to the project's GitHub remote with the credential of its trigger (never in argv or its log), and the PR opens", async () => {
    const { team, project, fullName } = await createGithubProject(double);
    const db = getDb();
    await db.projectSettings.update({ where: { projectId: project.id }, data: { useRunners: true } });
    await db.loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    const api = await startRunnerApi();
    stops.push(() => api.stop());
    // Every git command the runner runs, with its arguments, through a wrapper first on its PATH.
    const bin = mkdtempSync(join(tmpdir(), "rm-gitlog-"));
    const argvLog = join(bin, "argv.log");
    writeFileSync(argvLog, "");
    const realGit = execFileSync("sh", ["-c", "command -v git"]).toString().trim();
    writeFileSync(join(bin, "git"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${argvLog}'\nexec '${realGit}' "$@"\n`);
    chmodSync(join(bin, "git"), 0o755);
    const runner = startRunnerProcess(api.url, await runnerToken(team.id), ["--name", "gh-box"], { PATH: `${bin}:${process.env.PATH}` });
    stops.push(() => new Promise((r) => { if (runner.exitCode !== null) return r(null); runner.once("exit", r); runner.kill("SIGKILL"); }));
    const fail = (err: Error) => { throw new Error(`${err.message}\nrunner:\n${runner.output()}`); };
    await waitUntil("the runner to register", async () => runner.output().includes('registered as "gh-box"')).catch(fail);

    await addPrompt(project.id, { number: 1, title: "Add remote", body: "print pushing to github\n\n```file remote.txt\nfrom a runner\n```\n" });
    await runTick(project.id);
    const run = await waitUntil("the run to succeed", () => db.run.findFirst({ where: { projectId: project.id, status: "succeeded" } }), 90_000).catch(fail);
    expect(run).toMatchObject({ remote: true, branch: "ringmaster/1-add-remote" });
    // The branch is on "GitHub", at the commit the runner reported.
    expect(double.headSha(fullName, run.branch!)).toBe(run.commitSha);
    const pushes = gitHttp.requests.filter((r) => r.service === "git-receive-pack");
    expect(pushes.length).toBeGreaterThan(0);
    expect(pushes.every((r) => r.authorized)).toBe(true);
    expect(gitHttp.requests.filter((r) => !r.authorized)).toEqual([]);

    // The merge queue: the server's clone takes the branch from GitHub and opens its pull request.
    expect(await mergeRun(run.id)).toBe("pushed");
    const opened = double.calls("POST", `/repos/${fullName}/pulls`);
    expect(opened.map((c) => (c.body as { head: string; base: string })).map((b) => [b.head, b.base])).toEqual([[run.branch, "main"]]);
    const pr = await db.pullRequest.findFirstOrThrow({ where: { projectId: project.id } });
    expect(pr).toMatchObject({ headBranch: run.branch, headSha: run.commitSha });

    // The credential was in no git command line, the runner's output or the run's log.
    const argv = readFileSync(argvLog, "utf8");
    expect(argv).toContain(`push --quiet ${gitHttp.url}/acme/`);
    expect(argv).not.toContain(PAT);
    expect(runner.output()).not.toContain(PAT);
    const logs = await db.runLog.findMany({ where: { runId: run.id } });
    expect(logs.map((l) => l.content).join("\n")).toContain("[runner] pushed");
    expect(logs.some((l) => l.content.includes(PAT))).toBe(false);
  }, 180_000);
});
