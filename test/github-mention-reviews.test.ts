import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { PATCH as patchConnection } from "@/app/api/projects/[id]/github/route";
import { sendGithubNotices } from "@/lib/github/mention-notices";
import { tickAndRun } from "./helpers/run-once";
import { addPrompt } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";
import { example, startGithubDouble } from "./helpers/github-fixtures";
import { BOT, mentionProject, play, runnerAgent, workOn } from "./helpers/github-mentions";
import type { GithubDouble } from "./helpers/github-double";

const double: GithubDouble = await startGithubDouble();
afterAll(() => double.stop());

const APP = "http://localhost:3000";

/** A review of pull request `number` with inline comments, as GitHub delivers it: the review, then one delivery per comment. */
function reviewDeliveries(fullName: string, number: number, login: string, body: string, inline: { path: string; line: number; body: string }[]) {
  const review = double.addReview(fullName, number, login, body, "COMMENTED", inline);
  const comments = inline.map((c, i) => ({ ...c, id: review.id + i + 1 }));
  const reviewPayload = example("pull_request_review", "submitted", fullName, (p) => {
    Object.assign(p.pull_request, { number, title: `PR ${number}` });
    Object.assign(p.review, { id: review.id, body, state: "commented", performed_via_github_app: null });
    p.review.user.login = login;
    p.sender.login = login;
  });
  const commentPayloads = comments.map((c) => example("pull_request_review_comment", "created", fullName, (p) => {
    Object.assign(p.pull_request, { number, title: `PR ${number}` });
    Object.assign(p.comment, { id: c.id, body: c.body, path: c.path, line: c.line, pull_request_review_id: review.id, performed_via_github_app: null });
    p.comment.user.login = login;
    p.sender.login = login;
  }));
  return { review, reviewPayload, commentPayloads };
}

describe("a review with many comments", () => {
  it("on a pull request Ringmaster did not open: one prompt holding the whole review, one answer, whichever delivery comes first", async () => {
    const fx = await mentionProject(double);
    const backend = await runnerAgent(fx.team.id, "backend");
    const n = 4242;
    double.openPull(fx.fullName, { number: n, head: "feature/x", base: "main" });
    const { review, reviewPayload, commentPayloads } = reviewDeliveries(fx.fullName, n, "alice", "", [
      { path: "src/a.ts", line: 3, body: "rename this" },
      { path: "src/b.ts", line: 9, body: `@${BOT} backend please fix these` },
      { path: "src/c.ts", line: 1, body: `@${BOT} and this one` },
    ]);
    // The comments arrive before the review, as they may.
    const outcomes = [];
    for (const p of commentPayloads) outcomes.push((await play("pull_request_review_comment", p)).outcome);
    outcomes.push((await play("pull_request_review", reviewPayload)).outcome);
    expect(outcomes).toEqual(["ignored", "processed", "ignored", "ignored"]);
    const work = await workOn(fx.project.id, n);
    expect(work).toHaveLength(1);
    expect(work[0]).toMatchObject({ source: `review:${review.id}`, agentId: backend.id, githubUser: "alice" });
    const prompt = await getDb().prompt.findUniqueOrThrow({ where: { id: work[0].promptId! } });
    expect(prompt.body.split("\n\n(Asked")[0]).toBe("`src/a.ts` line 3: rename this\n\n`src/b.ts` line 9: backend please fix these\n\n`src/c.ts` line 1: and this one");
    expect(double.ownComments(fx.fullName, n)).toEqual([`Queued for backend: ${APP}/prompts/${prompt.id}`]);
    expect(double.reactionsOn(fx.fullName, `review-comment:${commentPayloads[1].comment.id}`)).toEqual(["eyes"]);
  });

  it("an approving review that asks for work on a pull request Ringmaster did not open is that request, and merges nothing", async () => {
    const fx = await mentionProject(double);
    const backend = await runnerAgent(fx.team.id, "backend");
    const n = 4343;
    double.openPull(fx.fullName, { number: n, head: "feature/y", base: "main" });
    const body = `@${BOT} backend please tidy this up`;
    const review = double.addReview(fx.fullName, n, "alice", body, "APPROVED");
    const payload = example("pull_request_review", "submitted", fx.fullName, (p) => {
      Object.assign(p.pull_request, { number: n, title: `PR ${n}` });
      Object.assign(p.review, { id: review.id, body, state: "approved", performed_via_github_app: null });
      p.review.user.login = "alice";
      p.sender.login = "alice";
    });
    expect((await play("pull_request_review", payload)).outcome).toBe("processed");
    const work = await workOn(fx.project.id, n);
    expect(work).toHaveLength(1);
    expect(work[0]).toMatchObject({ source: `review:${review.id}`, agentId: backend.id, githubUser: "alice" });
    expect(double.calls("PUT", `/repos/${fx.fullName}/pulls/${n}/merge`)).toEqual([]);
  });

  it("on a pull request Ringmaster opened: one fix run on its branch, announced once, its end reported on the pull request", async () => {
    const fx = await mentionProject(double);
    await addPrompt(fx.project.id, { number: 1, title: "Add feature", body: "Please add a file.\n\n```file feature.txt\nhello\n```" });
    await tickAndRun(fx.project.id);
    const pr = await getDb().pullRequest.findFirstOrThrow({ where: { projectId: fx.project.id } });
    const { reviewPayload, commentPayloads } = reviewDeliveries(fx.fullName, pr.number, "mona", `@${BOT} two things`, [
      { path: "feature.txt", line: 1, body: `@${BOT} say goodbye too` },
      { path: "feature.txt", line: 1, body: "and end with a newline" },
    ]);
    const outcomes = [(await play("pull_request_review", reviewPayload)).outcome];
    for (const p of commentPayloads) outcomes.push((await play("pull_request_review_comment", p)).outcome);
    // The comment without a mention is checked as ordinary review feedback: the fix already took it in.
    expect(outcomes).toEqual(["processed", "ignored", "processed"]);
    const fixes = await getDb().run.findMany({ where: { pullRequestId: pr.id, kind: "reviewer_fix" }, include: { prompt: true } });
    expect(fixes).toHaveLength(1);
    expect(fixes[0].prompt!.branch).toBe(pr.headBranch);
    expect(fixes[0].prompt!.body).toContain(`### \`feature.txt\` line 1 — mona\n\n@${BOT} say goodbye too`);
    expect(fixes[0].prompt!.body).toContain("and end with a newline");
    const [w] = await workOn(fx.project.id, pr.number);
    expect(w).toMatchObject({ target: "fix", promptId: fixes[0].promptId, notices: true });
    const said = double.ownComments(fx.fullName, pr.number);
    expect(said).toEqual([`Working on it: a fix run on this pull request's branch, ${APP}/runs/${fixes[0].id}`]);
    expect(double.reactionsOn(fx.fullName, `issue:${pr.number}`)).toEqual(["eyes"]);

    // A second writer's mention while the fix runs is told so, once.
    // It names the review detection string too ("greptile"): review feedback, were it not a request already heard.
    const busy = reviewDeliveries(fx.fullName, pr.number, "alice", `@${BOT} one more, as greptile says`, []);
    expect((await play("pull_request_review", busy.reviewPayload)).outcome).toBe("processed");
    expect(double.ownComments(fx.fullName, pr.number).at(-1)).toBe("A fix run is already working on this pull request; mention me again once it has pushed.");
    expect(await getDb().run.count({ where: { pullRequestId: pr.id, kind: "reviewer_fix" } })).toBe(1);

    await getDb().prompt.update({ where: { id: fixes[0].promptId! }, data: { status: "done" } });
    expect(await sendGithubNotices()).toBe(1);
    expect(double.ownComments(fx.fullName, pr.number).at(-1)).toBe(`Done: pull request ${pr.url}`);

    // A review bot is no writer: its mention is not heard as a request, but its review is still
    // review feedback (the detection string), as before mentions existed.
    await getDb().run.update({ where: { id: fixes[0].id }, data: { status: "succeeded", finishedAt: new Date() } });
    const commentsBefore = double.ownComments(fx.fullName, pr.number).length;
    // The writer's mention already answered, delivered again under a new delivery id once the fix ran: it
    // is that request (ignored), not review feedback naming the detection string, and starts no second fix.
    expect((await play("pull_request_review", busy.reviewPayload)).outcome).toBe("ignored");
    expect(await getDb().run.count({ where: { pullRequestId: pr.id, kind: "reviewer_fix" } })).toBe(1);
    expect(double.ownComments(fx.fullName, pr.number)).toHaveLength(commentsBefore);
    const bot = reviewDeliveries(fx.fullName, pr.number, "greptile-apps[bot]", `Greptile summary for @${BOT}: one more issue.`, []);
    expect((await play("pull_request_review", bot.reviewPayload)).outcome).toBe("refused");
    expect(await getDb().run.count({ where: { pullRequestId: pr.id, kind: "reviewer_fix" } })).toBe(2);
    expect(double.ownComments(fx.fullName, pr.number)).toHaveLength(commentsBefore);
  });
});

describe("the mention login setting", () => {
  it("an admin sets and clears it; a bad login is refused naming the field and changes nothing; a member may not", async () => {
    const fx = await mentionProject(double);
    const patch = (token: string, body: unknown) => patchConnection(request("PATCH", `/api/projects/${fx.project.id}/github`, token, body), params(fx.project.id));
    const saved = () => getDb().githubConnection.findFirstOrThrow({ where: { projects: { some: { id: fx.project.id } } } });
    expect((await saved()).mentionLogin).toBe(BOT);
    for (const bad of [{ mentionLogin: "rm--bot" }, { mentionLogin: "a".repeat(40) }, { mentionLogin: "rm\u0000bot" }, { mentionLogin: 7 }, {}]) {
      const res = await patch(fx.token, bad);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe("invalid");
      expect(Object.keys(body.error.fields)).toEqual(["mentionLogin"]);
      expect(body.error.fields.mentionLogin).toMatch(/^Bot login for mentions /);
    }
    expect((await saved()).mentionLogin).toBe(BOT);
    const member = await apiToken(fx.team.id, "operator");
    expect((await patch(member, { mentionLogin: "other" })).status).toBe(403);
    const off = await patch(fx.token, { mentionLogin: "" });
    expect(off.status).toBe(200);
    expect((await off.json()).mentionLogin).toBeNull();
    expect((await saved()).mentionLogin).toBeNull();
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { action: "github.mentions_changed", targetId: fx.project.id }, orderBy: { id: "desc" } });
    expect(audit).toMatchObject({ before: { mentionLogin: BOT }, after: { mentionLogin: null } });
  });
});
