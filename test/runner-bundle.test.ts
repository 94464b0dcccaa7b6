import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { closeRunnerWake } from "@/lib/runners/wake";
import { GET as poll } from "@/app/api/runner/poll/route";
import { GET as getBundle, POST as postBundle } from "@/app/api/runner/runs/[id]/bundle/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { params } from "./helpers/api";
import { poolRun, registeredAgent, runnerRequest, runnerToken } from "./helpers/runners";

afterAll(closeRunnerWake);

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd }).toString().trim();
const bundleRequest = (method: string, runId: string, token: string, agentId: string, body?: Buffer, headers: Record<string, string> = {}) =>
  new Request(`http://localhost/api/runner/runs/${runId}/bundle`, {
    method, headers: { authorization: `Bearer ${token}`, "x-agent-id": agentId, "content-type": "application/x-git-bundle", ...headers }, body: body ? new Uint8Array(body) : undefined,
  });

async function heldRun() {
  const { team, project, profile, repoPath } = await createTeamWithProject();
  const token = await runnerToken(team.id);
  const agent = await registeredAgent(token);
  const { run } = await poolRun(project, profile, 1);
  const res = await poll(runnerRequest("GET", "/api/runner/poll?wait=0", token, agent), { params: Promise.resolve({}) });
  const { trigger } = await res.json();
  expect(trigger.run).toMatchObject({ id: run.id, repoUrl: null, bundlePath: `/api/runner/runs/${run.id}/bundle`, branch: "ringmaster/1-task-1" });
  return { team, token, agent, repoPath, runId: run.id, branch: trigger.run.branch as string };
}

/** What a runner does: fetch the base from the bundle, commit on the run's branch, bundle the new commits. */
function workOn(base: Buffer, branch: string, file: string, from = "origin/main") {
  const dir = mkdtempSync(join(tmpdir(), "rm-runner-clone-"));
  git(dir, "init", "--quiet");
  writeFileSync(join(dir, "base.bundle"), base);
  git(dir, "fetch", "--quiet", join(dir, "base.bundle"), "+refs/heads/*:refs/remotes/origin/*");
  git(dir, "checkout", "--quiet", "-b", branch, from);
  writeFileSync(join(dir, file), "work\n");
  git(dir, "add", file);
  git(dir, "commit", "--quiet", "-m", `add ${file}`);
  git(dir, "bundle", "create", "--quiet", "run.bundle", `refs/heads/${branch}`, "^origin/main");
  return { dir, sha: git(dir, "rev-parse", "HEAD"), bundle: readFileSync(join(dir, "run.bundle")) };
}

describe("git bundles for a project whose repository is local to the server", () => {
  it("hands the base out and takes the run's branch back, verified and fetched into the project's repository", async () => {
    const { token, agent, repoPath, runId, branch } = await heldRun();
    const res = await getBundle(bundleRequest("GET", runId, token, agent), params(runId));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-git-bundle");
    const base = Buffer.from(await res.arrayBuffer());
    const work = workOn(base, branch, "new.txt");
    const back = await postBundle(bundleRequest("POST", runId, token, agent, work.bundle), params(runId));
    expect(back.status).toBe(200);
    expect(await back.json()).toEqual({ branch, sha: work.sha });
    expect(git(repoPath, "rev-parse", branch)).toBe(work.sha);
    expect(git(repoPath, "show", `${branch}:new.txt`)).toBe("work");
    // A retry's base bundle carries the branch so far, to continue it.
    const again = Buffer.from(await (await getBundle(bundleRequest("GET", runId, token, agent), params(runId))).arrayBuffer());
    writeFileSync(join(work.dir, "again.bundle"), again);
    expect(git(work.dir, "bundle", "list-heads", "again.bundle").split("\n").map((l) => l.split(" ")[1]).sort()).toEqual(["refs/heads/main", `refs/heads/${branch}`]);
  });

  it("refuses what is not the run's work, and changes nothing", async () => {
    const { team, token, agent, repoPath, runId, branch } = await heldRun();
    const base = Buffer.from(await (await getBundle(bundleRequest("GET", runId, token, agent), params(runId))).arrayBuffer());
    const refs = () => git(repoPath, "for-each-ref", "--format=%(refname) %(objectname)");
    const before = refs();
    const expectRefused = async (res: Response, status: number, message: string) => {
      expect(res.status).toBe(status);
      expect((await res.json()).error).toMatchObject({ field: "body", message });
      expect(refs()).toBe(before);
    };
    await expectRefused(await postBundle(bundleRequest("POST", runId, token, agent, Buffer.from("not a bundle")), params(runId)), 400,
      "the body is not a git bundle this project's repository can take (git bundle verify failed)");
    const other = workOn(base, "ringmaster/elsewhere", "x.txt");
    await expectRefused(await postBundle(bundleRequest("POST", runId, token, agent, other.bundle), params(runId)), 400, `the bundle must hold exactly the run's branch ${branch}`);
    await expectRefused(await postBundle(bundleRequest("POST", runId, token, agent, Buffer.alloc(10), { "content-length": String(100 * 1024 * 1024 + 1) }), params(runId)), 413, "the bundle must be at most 100 MiB");
    // A bundle whose commits the project's repository lacks the base of.
    const stranger = mkdtempSync(join(tmpdir(), "rm-stranger-"));
    git(stranger, "init", "--quiet", "-b", "main");
    git(stranger, "commit", "--quiet", "--allow-empty", "-m", "root");
    git(stranger, "checkout", "--quiet", "-b", branch);
    git(stranger, "commit", "--quiet", "--allow-empty", "-m", "more");
    git(stranger, "bundle", "create", "--quiet", "s.bundle", `refs/heads/${branch}`, "^main");
    await expectRefused(await postBundle(bundleRequest("POST", runId, token, agent, readFileSync(join(stranger, "s.bundle"))), params(runId)), 400,
      "the body is not a git bundle this project's repository can take (git bundle verify failed)");

    // The branch lands once; a bundle that does not build on it is not forced over it.
    const first = workOn(base, branch, "a.txt");
    expect((await postBundle(bundleRequest("POST", runId, token, agent, first.bundle), params(runId))).status).toBe(200);
    const sideways = workOn(base, branch, "b.txt");
    const res = await postBundle(bundleRequest("POST", runId, token, agent, sideways.bundle), params(runId));
    expect(res.status).toBe(409);
    expect(git(repoPath, "rev-parse", branch)).toBe(first.sha);

    // Another agent of the team does not hold the run; another team's runner does not see it.
    const bob = await registeredAgent(token);
    expect((await getBundle(bundleRequest("GET", runId, token, bob), params(runId))).status).toBe(409);
    expect((await postBundle(bundleRequest("POST", runId, token, bob, first.bundle), params(runId))).status).toBe(409);
    const strangerTeam = await createTeamWithProject();
    const theirs = await runnerToken(strangerTeam.team.id);
    expect((await getBundle(bundleRequest("GET", runId, theirs, await registeredAgent(theirs)), params(runId))).status).toBe(404);
    expect(team.id).not.toBe(strangerTeam.team.id);
    expect(await getDb().run.count({ where: { id: runId, status: "running" } })).toBe(1);
  });
});
