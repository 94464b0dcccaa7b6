import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { tickAndRun } from "./helpers/run-once";
import { addPrompt, waitUntil } from "./helpers/fixtures";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";
import { createGithubProject, deliver, example, startGithubDouble } from "./helpers/github-fixtures";
import type { GithubDouble } from "./helpers/github-double";

const double: GithubDouble = await startGithubDouble();
afterAll(() => double.stop());

describe("the github worker", () => {
  it("a review webhook becomes a fix run, a push and a rerun comment — through a rate limit that hands the job back", async () => {
    const { project, fullName } = await createGithubProject(double);
    await addPrompt(project.id, { number: 1, title: "Add feature", body: "```file feature.txt\nhello\n```" });
    await tickAndRun(project.id);
    const pr = await getDb().pullRequest.findFirstOrThrow({ where: { projectId: project.id } });

    // Every rate limit goes back to the queue (no waiting in place), so the delivery's job is delayed, not lost.
    const worker = startWorkerProcess({ GITHUB_MAX_INLINE_WAIT_S: "0", TICK_SCHEDULES: "off" });
    try {
      await waitForWorkers(worker);
      double.rateLimit((r) => r.method === "GET" && r.path === `/repos/${fullName}/pulls/${pr.number}/reviews`, 1, 2);
      double.addReview(fullName, pr.number, "greptile-apps[bot]", "Greptile: add a fix file.\n\n```file fix.txt\nfixed\n```");
      const payload = example("pull_request_review", "submitted", fullName, (p) => { p.pull_request.number = pr.number; p.review.user.login = "greptile-apps[bot]"; });
      const d = await deliver("pull_request_review", payload);
      expect(d.status).toBe(202);
      await waitUntil("the fix pushed", () => getDb().run.findFirst({ where: { pullRequestId: pr.id, kind: "reviewer_fix", mergeStatus: "pushed" } }), 90_000);
      expect(double.calls("POST", `/repos/${fullName}/issues/${pr.number}/comments`).map((c) => c.body)).toEqual([{ body: "@greptile" }]);
      const limited = double.requests.filter((r) => r.path === `/repos/${fullName}/pulls/${pr.number}/reviews`);
      expect(limited.length).toBeGreaterThanOrEqual(2);
      const fixes = await getDb().run.findMany({ where: { pullRequestId: pr.id, kind: "reviewer_fix" } });
      expect(fixes).toHaveLength(1);
      expect(fixes[0]).toMatchObject({ status: "succeeded", mergeStatus: "pushed", branch: pr.headBranch });
      expect(double.headSha(fullName, pr.headBranch)).toBe(fixes[0].commitSha);
      // The fix run can push before the delivery's job writes its outcome (or before a handed-back retry runs):
      // wait for the outcome, then check that the retry started nothing new.
      await waitUntil("the delivery processed", async () => {
        const row = await getDb().webhookDelivery.findUniqueOrThrow({ where: { provider_deliveryId: { provider: "github", deliveryId: d.deliveryId } } });
        return row.status === "processed";
      }, 90_000);
      expect(await getDb().run.count({ where: { pullRequestId: pr.id, kind: "reviewer_fix" } })).toBe(1);
    } finally {
      await stopWorkerProcess(worker);
    }
    // A worker start (up to 60 s), a sandboxed fix run behind a rate limit and the delivery's outcome.
  }, 240_000);
});
