// The fallback for a project whose webhooks are not arriving: which deliveries count as webhooks
// being live, which pull requests are polled, and what a recheck does with what GitHub says.
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { pollPullRequests, recheckPullRequest } from "@/lib/github/poll";
import { createGithubProject, projectWithOpenPr as openPr, startGithubDouble } from "./helpers/github-fixtures";
import type { GithubDouble } from "./helpers/github-double";

const double: GithubDouble = await startGithubDouble();
afterAll(() => double.stop());

/** A GitHub project with one open PR and no webhook deliveries on record. */
async function projectWithOpenPr() {
  const fx = await openPr(double);
  await getDb().webhookDelivery.deleteMany({ where: { projectId: fx.project.id } });
  return fx;
}

const delivery = (projectId: string, minutesAgo: number) => getDb().webhookDelivery.create({
  data: {
    provider: "github", deliveryId: `poll-${Math.random()}`, event: "ping", projectId, status: "processed", payload: "{}",
    receivedAt: new Date(Date.now() - minutesAgo * 60_000),
  },
});
// GitHub asked for the pull request itself (the poll's look at its state).
const pullGets = (fullName: string) => double.calls("GET", `/repos/${fullName}/pulls/`).filter((r) => /\/pulls\/\d+$/.test(r.path)).map((r) => r.path);
const mergePuts = (fullName: string, number: number) => double.calls("PUT", `/repos/${fullName}/pulls/${number}/merge`).length;

describe("pollPullRequests", () => {
  it("polls while no delivery of this project arrived in the last 10 minutes; another project's or an older one does not count", async () => {
    const { project, fullName } = await projectWithOpenPr();
    const other = await createGithubProject(double);
    await delivery(other.project.id, 0);
    await delivery(project.id, 11);
    expect(await pollPullRequests(project.id)).toEqual({ polled: 1 });
    expect(pullGets(fullName)).toHaveLength(1);

    await delivery(project.id, 5);
    expect(await pollPullRequests(project.id)).toEqual({ polled: 0 });
    expect(pullGets(fullName)).toHaveLength(1);
  });

  it("asks GitHub only for this project's open pull requests, and nothing at all when it has none", async () => {
    const { project, fullName, pr } = await projectWithOpenPr();
    const bare = await createGithubProject(double);
    await getDb().pullRequest.create({ data: { projectId: project.id, number: 99, headBranch: "ringmaster/old", baseBranch: "main", url: `https://github.com/${fullName}/pull/99`, state: "closed" } });
    const before = double.calls("GET").length;
    expect(await pollPullRequests(bare.project.id)).toEqual({ polled: 0 });
    expect(double.calls("GET").length).toBe(before);

    expect(await pollPullRequests(project.id)).toEqual({ polled: 1 });
    expect(pullGets(fullName)).toEqual([`/repos/${fullName}/pulls/${pr.number}`]);
    expect(await pollPullRequests("no-such-project")).toEqual({ polled: 0 });
  });

  it("records a pull request GitHub says was merged, and looks no further at it (no reviews, no checks)", async () => {
    const { project, fullName, pr } = await projectWithOpenPr();
    Object.assign(double.pull(fullName, pr.number)!, { state: "closed", merged: true });
    const before = double.requests.length;
    expect(await pollPullRequests(project.id)).toEqual({ polled: 1 });
    expect(double.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /repos/${fullName}/pulls/${pr.number}`]);
    expect((await getDb().pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).state).toBe("merged");
  });
});

describe("recheckPullRequest", () => {
  it("merges (auto-merge on) only once the checks are green", async () => {
    const { project, fullName, pr } = await projectWithOpenPr();
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { autoMerge: true } });
    double.setCheckRuns(fullName, pr.headSha!, [{ name: "build", conclusion: null, status: "in_progress" }]);
    await recheckPullRequest(pr.id);
    expect(mergePuts(fullName, pr.number)).toBe(0);
    double.setCheckRuns(fullName, pr.headSha!, [{ name: "build", conclusion: "success" }]);
    await recheckPullRequest(pr.id);
    expect(mergePuts(fullName, pr.number)).toBe(1);
  });

  it("of a pull request no longer open asks for no checks and merges nothing", async () => {
    const { project, fullName, pr } = await projectWithOpenPr();
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { autoMerge: true } });
    await getDb().pullRequest.update({ where: { id: pr.id }, data: { state: "closed" } });
    await expect(recheckPullRequest(pr.id)).resolves.toBeUndefined();
    expect(double.calls("GET", `/repos/${fullName}/commits/`)).toHaveLength(0);
    expect(mergePuts(fullName, pr.number)).toBe(0);
  });
});
