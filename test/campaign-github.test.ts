import { execFileSync } from "node:child_process";
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { campaignBranch, mirrorCampaignState, STATE_PATH } from "@/lib/campaigns/mirror";
import { clonePath } from "@/lib/github/repo";
import { POST as postCampaign } from "@/app/api/projects/[id]/campaigns/route";
import { POST as controlCampaign } from "@/app/api/campaigns/[id]/route";
import { createGithubProject, PAT, startGithubDouble } from "./helpers/github-fixtures";
import { startGitHttp } from "./helpers/git-http";
import { params, request } from "./helpers/api";

// GitHub's REST API and its git endpoint (smart HTTP by `git http-backend`), both doubles.
const double = await startGithubDouble();
const gitHttp = await startGitHttp(double.remotesRoot, PAT);
process.env.GITHUB_GIT_URL = `${gitHttp.url}/{owner}/{repo}.git`;
afterAll(async () => { await gitHttp.stop(); await double.stop(); });

const git = (dir: string, ...args: string[]) => execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8" }).trim();
const pushes = () => gitHttp.requests.filter((r) => r.service === "git-receive-pack" && r.method === "POST");

// On a GitHub project the campaign's branch lives in the server's clone; people and agents read
// GitHub, so each new state is pushed there, with the connection's token as a header.
describe("a GitHub project's campaign state", () => {
  it("is pushed to GitHub after each new commit, again after a refused push, never to the base branch", async () => {
    const { project, token, fullName } = await createGithubProject(double);
    const remote = join(double.remotesRoot, `${fullName}.git`);
    const main = git(remote, "rev-parse", "refs/heads/main");
    const stateOnGithub = (ref: string) => JSON.parse(git(remote, "show", `${ref}:${STATE_PATH}`));

    // Created in PLANNING: the server clones the repository, starts the branch from main and pushes it.
    const res = await postCampaign(request("POST", `/api/projects/${project.id}/campaigns`, token, { goal: "# Faster builds" }), params(project.id));
    expect(res.status).toBe(201);
    const { campaign } = await res.json();
    const branch = campaignBranch(campaign.id);
    expect(stateOnGithub(branch)).toMatchObject({ campaign: campaign.id, status: "PLANNING", paused: false, plan: null });
    expect(git(remote, "rev-parse", `${branch}~1`)).toBe(main);
    expect(git(remote, "rev-parse", branch)).toBe(git(clonePath(project.id), "rev-parse", `refs/heads/${branch}`));
    expect(pushes()).toHaveLength(1);
    expect(gitHttp.requests.every((r) => r.authorized)).toBe(true);

    // GitHub refuses the next push: the commit stays in the clone, the campaign goes on.
    const hook = join(remote, "hooks", "pre-receive");
    writeFileSync(hook, "#!/bin/sh\necho 'refused by the test' >&2\nexit 1\n");
    chmodSync(hook, 0o755);
    const control = (action: string) => controlCampaign(request("POST", `/api/campaigns/${campaign.id}`, token, { action }), params(campaign.id));
    expect((await control("pause")).status).toBe(200);
    expect(pushes()).toHaveLength(2);
    expect(stateOnGithub(branch)).toMatchObject({ paused: false });
    expect(git(clonePath(project.id), "show", `refs/heads/${branch}:${STATE_PATH}`)).toContain('"paused": true');

    // The next pass has nothing new to commit, yet pushes what GitHub missed; then nothing more.
    rmSync(hook);
    expect(await mirrorCampaignState(campaign.id)).toBeNull();
    expect(stateOnGithub(branch)).toMatchObject({ status: "PLANNING", paused: true });
    expect(pushes()).toHaveLength(3);
    expect(await mirrorCampaignState(campaign.id)).toBeNull();
    expect(pushes()).toHaveLength(3);

    expect((await control("cancel")).status).toBe(200);
    expect(stateOnGithub(branch)).toMatchObject({ status: "CANCELLED" });
    expect(pushes()).toHaveLength(4);
    // Only the campaign's branch moved on GitHub: main is where it was, without the state file.
    expect(git(remote, "rev-parse", "refs/heads/main")).toBe(main);
    expect(git(remote, "ls-tree", "-r", "--name-only", "main")).not.toContain(".campaign");
    expect(git(remote, "for-each-ref", "--format=%(refname)", "refs/heads")).toBe(["refs/heads/main", `refs/heads/${branch}`].sort().join("\n"));
  });
});
