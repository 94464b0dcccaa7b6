// Invariant 12: nothing Ringmaster writes on GitHub is a trigger. Real payloads from
// @octokit/webhooks-examples, signed and sent through the webhook route, processed by the worker's code.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { processDelivery } from "@/lib/github/deliveries";
import { PUT as putConnection } from "@/app/api/projects/[id]/github/route";
import { addPrompt } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";
import { params, request } from "./helpers/api";
import { createGithubProject, deliver, example, startGithubDouble, WEBHOOK_SECRET } from "./helpers/github-fixtures";

const double = await startGithubDouble();
afterAll(() => double.stop());

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A GitHub project connected as the double's app (id 42, "ringmaster-test[bot]") with one open PR. */
async function appProjectWithOpenPr() {
  const fx = await createGithubProject(double);
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
  const res = await putConnection(request("PUT", `/api/projects/${fx.project.id}/github`, fx.token, { kind: "app", appId: "42", installationId: "777", privateKey, webhookSecret: WEBHOOK_SECRET }), params(fx.project.id));
  expect(res.status).toBe(201);
  await addPrompt(fx.project.id, { number: 1, title: "Add feature", body: "```file feature.txt\nhello\n```\n" });
  await tickAndRun(fx.project.id);
  const pr = await getDb().pullRequest.findFirstOrThrow({ where: { projectId: fx.project.id } });
  return { ...fx, pr };
}

const BOT = "ringmaster-test[bot]";

// Ours in five shapes: a review, an inline comment, a PR comment (the "@greptile" rerun request
// that names the detection string), a comment our app posted, and a failing check our app wrote.
function ownEvents(fullName: string, pr: { number: number; headSha: string | null }, i: number): Array<[string, Json]> {
  return [
    ["pull_request_review", example("pull_request_review", "submitted", fullName, (p) => {
      p.pull_request.number = pr.number; p.review.user.login = BOT; p.review.body = `greptile says fix ${i}`; p.review.state = "changes_requested";
    })],
    ["pull_request_review_comment", example("pull_request_review_comment", "created", fullName, (p) => {
      p.pull_request.number = pr.number; p.comment.user.login = BOT; p.comment.body = `greptile: line ${i}`;
    })],
    ["issue_comment", example("issue_comment", "created", fullName, (p) => {
      p.issue.number = pr.number; p.issue.pull_request = { url: "x" }; p.comment.user.login = BOT; p.comment.body = "@greptile";
    })],
    ["issue_comment", example("issue_comment", "created", fullName, (p) => {
      p.issue.number = pr.number; p.issue.pull_request = { url: "x" }; p.comment.user.login = "someone-else"; p.comment.body = `greptile ${i}`;
      p.comment.performed_via_github_app = { id: 42, slug: "ringmaster-test" };
    })],
    ["check_run", example("check_run", "completed", fullName, (p) => {
      p.check_run.head_sha = pr.headSha; p.check_run.conclusion = "failure"; p.check_run.app.id = 42;
    })],
  ];
}

describe("Ringmaster never reacts to itself", () => {
  it("a burst of 50 of its own reviews, comments and checks creates no run and asks GitHub nothing", async () => {
    const { project, pr, fullName } = await appProjectWithOpenPr();
    double.setCheckRuns(fullName, pr.headSha!, [{ name: "unit tests", conclusion: "failure", output: { title: "1 failed" } }]);
    const runsBefore = await getDb().run.count({ where: { projectId: project.id } });
    const promptsBefore = await getDb().prompt.count({ where: { projectId: project.id } });
    const events = Array.from({ length: 10 }, (_, i) => ownEvents(fullName, pr, i)).flat();
    expect(events).toHaveLength(50);
    const requestsBefore = double.requests.length;
    const sent = await Promise.all(events.map(([event, payload]) => deliver(event, payload)));
    expect(sent.map((d) => d.status)).toEqual(Array(50).fill(202));
    const outcomes = await Promise.all(sent.map((d) => processDelivery(d.deliveryId)));
    expect(outcomes).toEqual(Array(50).fill("ignored"));
    expect(double.requests.length).toBe(requestsBefore);
    expect(await getDb().run.count({ where: { projectId: project.id } })).toBe(runsBefore);
    expect(await getDb().prompt.count({ where: { projectId: project.id } })).toBe(promptsBefore);
    expect(await getDb().approval.count({ where: { projectId: project.id } })).toBe(0);
  });

  it("the same review from someone else does start a fix run (the test above can fail)", async () => {
    const { pr, fullName } = await appProjectWithOpenPr();
    double.addReview(fullName, pr.number, "greptile-apps[bot]", "greptile: please rename", "CHANGES_REQUESTED");
    const review = example("pull_request_review", "submitted", fullName, (p) => {
      p.pull_request.number = pr.number; p.review.user.login = "greptile-apps[bot]"; p.review.body = "greptile: please rename";
    });
    expect(await processDelivery((await deliver("pull_request_review", review)).deliveryId)).toBe("processed");
    expect(await getDb().run.count({ where: { pullRequestId: pr.id, kind: "reviewer_fix" } })).toBe(1);
  });

  it("CI's failing check on a commit Ringmaster pushed is still feedback", async () => {
    const { pr, fullName } = await appProjectWithOpenPr();
    double.setCheckRuns(fullName, pr.headSha!, [{ name: "unit tests", conclusion: "failure", output: { title: "1 failed" } }]);
    const check = example("check_run", "completed", fullName, (p) => {
      p.check_run.head_sha = pr.headSha; p.check_run.conclusion = "failure"; p.sender.login = BOT;
    });
    expect(await processDelivery((await deliver("check_run", check)).deliveryId)).toBe("processed");
    expect(await getDb().run.count({ where: { pullRequestId: pr.id, kind: "reviewer_fix" } })).toBe(1);
  });
});
