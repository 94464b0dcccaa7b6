import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { processDelivery } from "@/lib/github/deliveries";
import { pollPullRequests, recheckPullRequest } from "@/lib/github/poll";
import { getQueue } from "@/lib/queues";
import { POST as decide } from "@/app/api/approvals/[id]/route";
import { apiToken, params, request } from "./helpers/api";
import { publishRun } from "@/lib/github/publish";
import { executeRun } from "@/lib/runs/execute";
import { mergeRun } from "@/lib/runs/merge";
import { tickAndRun } from "./helpers/run-once";
import { addPrompt } from "./helpers/fixtures";
import { createGithubProject, deliver, example, fileBlock, projectWithOpenPr as openPr, startGithubDouble } from "./helpers/github-fixtures";
import type { GithubDouble } from "./helpers/github-double";

const double: GithubDouble = await startGithubDouble();
afterAll(() => double.stop());

const projectWithOpenPr = () => openPr(double);

describe("CI feedback, merge policy, rate limits", () => {
  it("a failing check run starts one fix run with the check's output", async () => {
    const { pr, fullName } = await projectWithOpenPr();
    double.setCheckRuns(fullName, pr.headSha!, [
      { name: "lint", conclusion: "success" },
      { name: "unit tests", conclusion: "failure", output: { title: "2 failed", summary: "feature.test.ts: expected 1, got 2", text: fileBlock("ci-fix.txt", "green") } },
    ]);
    const payload = example("check_run", "completed", fullName, (p) => { p.check_run.head_sha = pr.headSha; p.check_run.conclusion = "failure"; });
    expect(await processDelivery((await deliver("check_run", payload)).deliveryId)).toBe("processed");
    // The suite's completion for the same commit does not start a second fix.
    const suite = example("check_suite", "completed", fullName, (p) => { p.check_suite.head_sha = pr.headSha; p.check_suite.conclusion = "failure"; });
    await processDelivery((await deliver("check_suite", suite)).deliveryId);
    const fixes = await getDb().run.findMany({ where: { pullRequestId: pr.id, kind: "reviewer_fix" }, include: { prompt: true } });
    expect(fixes).toHaveLength(1);
    expect(fixes[0].prompt!.body).toContain("Check run `unit tests`: failure");
    expect(fixes[0].prompt!.body).toContain("expected 1, got 2");
    expect(fixes[0].prompt!.body).not.toContain("`lint`");
    expect((await getDb().pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).checksState).toBe("failure");
    await executeRun(fixes[0].id);
    expect(await mergeRun(fixes[0].id)).toBe("pushed");
    expect(double.headSha(fullName, pr.headBranch)).not.toBe(pr.headSha);
  });

  it("merges with the project's method once checks are green, then closes the prompt and removes the worktree", async () => {
    const { pr, run, fullName, project } = await projectWithOpenPr();
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { autoMerge: true, mergeMethod: "rebase" } });
    double.setCheckRuns(fullName, pr.headSha!, [{ name: "build", conclusion: null, status: "in_progress" }]);
    const pending = example("check_run", "completed", fullName, (p) => { p.check_run.head_sha = pr.headSha; });
    await processDelivery((await deliver("check_run", pending)).deliveryId);
    expect(double.calls("PUT", `/repos/${fullName}/pulls/${pr.number}/merge`)).toHaveLength(0);
    double.setCheckRuns(fullName, pr.headSha!, [{ name: "build", conclusion: "success" }]);
    const green = example("check_suite", "completed", fullName, (p) => { p.check_suite.head_sha = pr.headSha; p.check_suite.conclusion = "success"; });
    expect(await processDelivery((await deliver("check_suite", green)).deliveryId)).toBe("processed");
    const merges = double.calls("PUT", `/repos/${fullName}/pulls/${pr.number}/merge`);
    expect(merges).toHaveLength(1);
    expect(merges[0].body).toEqual({ merge_method: "rebase", sha: pr.headSha });
    expect((await getDb().pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).state).toBe("merged");
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: run.promptId! } })).status).toBe("done");
    expect(existsSync(run.worktreePath!)).toBe(false);
  });

  it("asks a person before merging when the project says so", async () => {
    const fx = await projectWithOpenPr();
    const { pr, fullName, project } = fx;
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { autoMerge: true, approveMerges: true } });
    double.setCheckRuns(fullName, pr.headSha!, [{ name: "build", conclusion: "success" }]);
    const green = example("check_run", "completed", fullName, (p) => { p.check_run.head_sha = pr.headSha; });
    await processDelivery((await deliver("check_run", green)).deliveryId);
    expect(double.calls("PUT", `/repos/${fullName}/pulls/${pr.number}/merge`)).toHaveLength(0);
    const [approval] = await getDb().approval.findMany({ where: { pullRequestId: pr.id } });
    expect(approval).toMatchObject({ kind: "pr_merge", status: "pending" });
    // Approving in the inbox re-checks the pull request at once; no further GitHub event is needed.
    const operator = await apiToken(fx.team.id, "operator");
    expect((await decide(request("POST", `/api/approvals/${approval.id}`, operator, { decision: "approve" }), params(approval.id))).status).toBe(200);
    const queued = (await getQueue("github").getJobs(["waiting", "prioritized", "delayed"])).find((j) => "recheckPullRequestId" in j.data);
    expect(queued?.data).toEqual({ recheckPullRequestId: pr.id });
    await recheckPullRequest(pr.id);
    expect(double.calls("PUT", `/repos/${fullName}/pulls/${pr.number}/merge`)[0].body).toEqual({ merge_method: "squash", sha: pr.headSha });
  });

  it("GitHub answering 403 with a rate-limit header: the push and PR wait, then go through once", async () => {
    const fx = await createGithubProject(double);
    double.rateLimit((r) => r.method === "POST" && r.path === `/repos/${fx.fullName}/pulls`, 1, 1);
    await addPrompt(fx.project.id, { number: 1, title: "Limited", body: fileBlock("x.txt", "x") });
    const started = Date.now();
    const { run } = await tickAndRun(fx.project.id);
    expect(run!.mergeStatus).toBe("pushed");
    const attempts = double.calls("POST", `/repos/${fx.fullName}/pulls`);
    expect(attempts).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await getDb().pullRequest.count({ where: { projectId: fx.project.id } })).toBe(1);
  });

  it("work on the branch of a merged PR is not pushed: the prompt starts again on a new branch", async () => {
    const { pr, run, fullName, project } = await projectWithOpenPr();
    // A late follow-up on the PR's branch finishes after GitHub merged the PR (no webhook seen).
    double.pull(fullName, pr.number)!.state = "closed";
    double.pull(fullName, pr.number)!.merged = true;
    const follow = await getDb().run.create({
      data: { projectId: project.id, promptId: run.promptId, kind: "executor", adapter: "demo", status: "succeeded", mergeStatus: "pending", branch: pr.headBranch, worktreePath: run.worktreePath, commitSha: "1".repeat(40) },
    });
    const shaBefore = double.headSha(fullName, pr.headBranch);
    expect(await publishRun(follow.id)).toBe("skipped");
    expect(double.headSha(fullName, pr.headBranch)).toBe(shaBefore);
    const prompt = await getDb().prompt.findUniqueOrThrow({ where: { id: run.promptId! } });
    expect(prompt.branch).toBeNull();
    expect((await getDb().pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).state).toBe("merged");
  });

  it("without webhooks, the poll finds a new review and starts the fix", async () => {
    const { pr, fullName, project } = await projectWithOpenPr();
    await getDb().webhookDelivery.deleteMany({ where: { projectId: project.id } });
    double.addReview(fullName, pr.number, "greptile-apps[bot]", "Greptile: rename this.");
    expect(await pollPullRequests(project.id)).toEqual({ polled: 1 });
    expect(await getDb().run.count({ where: { pullRequestId: pr.id, kind: "reviewer_fix" } })).toBe(1);
    // Polling again finds nothing new.
    await pollPullRequests(project.id);
    expect(await getDb().run.count({ where: { pullRequestId: pr.id, kind: "reviewer_fix" } })).toBe(1);
  });
});
