import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { sendGithubNotices } from "@/lib/github/mention-notices";
import { startGithubDouble } from "./helpers/github-fixtures";
import { assignedPayload, BOT, commentPayload, mentionProject, nextIssue, play, runnerAgent, workOn } from "./helpers/github-mentions";
import type { GithubDouble } from "./helpers/github-double";

const double: GithubDouble = await startGithubDouble();
afterAll(() => double.stop());

type Fx = Awaited<ReturnType<typeof mentionProject>>;
const APP = "http://localhost:3000";
const permissionAsks = (fullName: string, login: string) => double.calls("GET", `/repos/${fullName}/collaborators/${login}/permission`).length;
const promptsOf = (fx: Fx) => getDb().prompt.findMany({ where: { projectId: fx.project.id }, orderBy: { number: "asc" } });

describe("an issue assigned to the bot", () => {
  let fx: Fx;
  let ids: Record<string, string>;
  beforeAll(async () => {
    fx = await mentionProject(double);
    const made = await Promise.all([runnerAgent(fx.team.id, "backend"), runnerAgent(fx.team.id, "frontend")]);
    ids = Object.fromEntries(made.map((a) => [a.name, a.id]));
  });

  it("naming an agent becomes that agent's prompt, with 👀 and the prompt's link on the issue", async () => {
    const n = nextIssue();
    const { outcome } = await play("issues", assignedPayload(fx.fullName, n, "alice", BOT, "Health check endpoint", "backend: add /health returning 200."));
    expect(outcome).toBe("processed");
    const [w] = await workOn(fx.project.id, n);
    expect(w).toMatchObject({ target: ids.backend, agentId: ids.backend, githubUser: "alice", fullName: fx.fullName, notices: true, source: expect.stringMatching(/^issue:\d+$/) });
    const prompt = await getDb().prompt.findUniqueOrThrow({ where: { id: w.promptId! }, include: { thread: true } });
    // Pinned to the agent it was routed to: its run goes to that agent alone.
    expect(prompt).toMatchObject({ title: "Health check endpoint", status: "pending", pinnedAgentId: ids.backend, sourceUrl: `https://github.com/${fx.fullName}/issues/${n}` });
    expect(prompt.body).toBe(`Health check endpoint\n\nbackend: add /health returning 200.\n\n(Asked on GitHub by @alice in ${fx.fullName}#${n}: https://github.com/${fx.fullName}/issues/${n})`);
    expect(prompt.thread!.id).toBe(w.threadId);
    expect(double.reactionsOn(fx.fullName, `issue:${n}`)).toEqual(["eyes"]);
    expect(double.ownComments(fx.fullName, n)).toEqual([`Queued for backend: ${APP}/prompts/${prompt.id}`]);
  });

  it("naming no agent is a turn for the lead in the issue's thread", async () => {
    const n = nextIssue();
    await play("issues", assignedPayload(fx.fullName, n, "mona", BOT, "Flaky CI", "It fails one run in five."));
    const [w] = await workOn(fx.project.id, n);
    expect(w).toMatchObject({ target: "lead", agentId: null, promptId: null });
    const turns = await getDb().turn.findMany({ where: { threadId: w.threadId! } });
    expect(turns.map((t) => [t.actor, t.actorId, t.content])).toEqual([["person", "github:mona", `@mona (GitHub ${fx.fullName}#${n}): Flaky CI\n\nIt fails one run in five.`]]);
    expect((await getDb().thread.findUniqueOrThrow({ where: { id: w.threadId! } })).title).toBe(`GitHub ${fx.fullName}#${n}: Flaky CI`);
    expect(double.ownComments(fx.fullName, n)).toEqual([`Passed to the lead in ${APP}/threads/${w.threadId}`]);
  });

  it("assigned to someone else, or by someone without write access, starts nothing and says nothing", async () => {
    const n = nextIssue();
    expect((await play("issues", assignedPayload(fx.fullName, n, "alice", "octocat", "Not ours", "backend please"))).outcome).toBe("ignored");
    expect((await play("issues", assignedPayload(fx.fullName, n, "tom", BOT, "Triage only", "backend please"))).outcome).toBe("refused");
    expect(await workOn(fx.project.id, n)).toEqual([]);
    expect(double.ownComments(fx.fullName, n)).toEqual([]);
    expect(double.reactionsOn(fx.fullName, `issue:${n}`)).toEqual([]);
  });
});

describe("a comment mentioning the bot, by someone with write access", () => {
  let fx: Fx;
  let ids: Record<string, string>;
  beforeAll(async () => {
    fx = await mentionProject(double);
    const made = await Promise.all([
      runnerAgent(fx.team.id, "backend"), runnerAgent(fx.team.id, "frontend"), runnerAgent(fx.team.id, "sleepy", { online: false }), runnerAgent(fx.team.id, "boss", { role: "lead" }),
    ]);
    ids = Object.fromEntries(made.map((a) => [a.name, a.id]));
  });

  // Each case: the comment, then the targets its work went to (agent name, or "lead") and what it became.
  it.each([
    ["rm#<agent id> → that agent", (): string => `@${BOT} rm#${ids.frontend} restyle the footer`, [["frontend", "prompt"]], false],
    ["rm#all → every online worker, the offline one's share to the lead", (): string => `@${BOT} rm#all bump the lockfile`, [["backend", "prompt"], ["frontend", "prompt"], ["lead", "turn"]], false],
    ["an agent's name → that agent", (): string => `@${BOT} backend the login 500s`, [["backend", "prompt"]], false],
    ["several names → the lead", (): string => `@${BOT} backend or frontend, whoever is free`, [["lead", "turn"]], false],
    ["a bare mention → the lead", (): string => `Hey @${BOT}, what is everyone doing?`, [["lead", "turn"]], false],
    ["an offline agent → the lead", (): string => `@${BOT} sleepy please look`, [["lead", "turn"]], false],
    ["on a pull request Ringmaster did not open: routed the same", (): string => `@${BOT} frontend please review the layout`, [["frontend", "prompt"]], true],
  ] as const)("%s", async (_name, body, expected, pull) => {
    const n = nextIssue();
    const before = (await promptsOf(fx)).length;
    const payload = commentPayload(double, fx.fullName, n, "alice", body(), { pull });
    expect((await play("issue_comment", payload)).outcome).toBe("processed");
    const work = await workOn(fx.project.id, n);
    const nameOf = (agentId: string | null) => (agentId ? Object.keys(ids).find((k) => ids[k] === agentId) : "lead");
    expect(work.map((w) => [nameOf(w.agentId), w.promptId ? "prompt" : "turn"]).sort()).toEqual([...expected].map((e) => [...e]).sort());
    for (const w of work) expect(w).toMatchObject({ source: `comment:${payload.comment.id}`, githubUser: "alice", projectId: fx.project.id });
    expect((await promptsOf(fx)).length - before).toBe(expected.filter((e) => e[1] === "prompt").length);
    expect(double.reactionsOn(fx.fullName, `comment:${payload.comment.id}`)).toEqual(["eyes"]);
    const replies = double.ownComments(fx.fullName, n);
    expect(replies).toHaveLength(1);
    for (const w of work.filter((x) => x.promptId)) expect(replies[0]).toContain(`${APP}/prompts/${w.promptId}`);
    // Each prompt is pinned to its agent and links back to the comment (shown on its board card).
    const made = await getDb().prompt.findMany({ where: { id: { in: work.filter((x) => x.promptId && x.agentId).map((x) => x.promptId!) } } });
    expect(made.map((p) => [p.pinnedAgentId, p.sourceUrl]).sort()).toEqual(work.filter((x) => x.promptId && x.agentId)
      .map((x) => [x.agentId, `https://github.com/${fx.fullName}/issues/${n}#issuecomment-${payload.comment.id}`]).sort());
  });

  it("an unknown agent id is answered with a sentence, and nothing is made", async () => {
    const n = nextIssue();
    expect((await play("issue_comment", commentPayload(double, fx.fullName, n, "alice", `@${BOT} rm#nobody do it`))).outcome).toBe("refused");
    expect(await workOn(fx.project.id, n)).toEqual([]);
    expect(double.ownComments(fx.fullName, n)).toEqual(["I know no agent with id `nobody`. Use `rm#<agent id>` with an id from the Runners page, or `rm#all`."]);
  });

  it("a later mention on the same issue goes to the agent working on it, into its prompt's thread", async () => {
    const n = nextIssue();
    await play("issue_comment", commentPayload(double, fx.fullName, n, "alice", `@${BOT} backend add rate limiting`));
    const [first] = await workOn(fx.project.id, n);
    await play("issue_comment", commentPayload(double, fx.fullName, n, "mona", `@${BOT} also on the admin API`));
    const [, follow] = await workOn(fx.project.id, n);
    expect(follow).toMatchObject({ agentId: ids.backend, promptId: first.promptId, threadId: first.threadId, githubUser: "mona" });
    const turns = await getDb().turn.findMany({ where: { threadId: first.threadId! }, orderBy: { seq: "asc" } });
    expect(turns.map((t) => t.content)).toEqual([`@mona (GitHub ${fx.fullName}#${n}): also on the admin API`]);
    expect(double.ownComments(fx.fullName, n).at(-1)).toBe(`Passed to backend in ${APP}/threads/${first.threadId}`);
  });

  it("a comment that does not mention the bot, or only mentions a longer login, is nobody's", async () => {
    const n = nextIssue();
    expect((await play("issue_comment", commentPayload(double, fx.fullName, n, "alice", `backend, ping @${BOT}-2`))).outcome).toBe("ignored");
    expect(await workOn(fx.project.id, n)).toEqual([]);
  });
});

describe("who may ask", () => {
  it("read, triage and unknown people get no run, no reaction and no answer; the answer is asked once and cached", async () => {
    const fx = await mentionProject(double);
    await runnerAgent(fx.team.id, "backend");
    for (const login of ["rita", "tom", "stranger"]) {
      const n = nextIssue();
      const payload = commentPayload(double, fx.fullName, n, login, `@${BOT} backend delete the database`);
      expect((await play("issue_comment", payload)).outcome).toBe("refused");
      expect(await workOn(fx.project.id, n)).toEqual([]);
      expect(double.ownComments(fx.fullName, n)).toEqual([]);
      expect(double.reactionsOn(fx.fullName, `comment:${payload.comment.id}`)).toEqual([]);
    }
    expect(await promptsOf(fx)).toEqual([]);
    const before = permissionAsks(fx.fullName, "rita");
    await play("issue_comment", commentPayload(double, fx.fullName, nextIssue(), "rita", `@${BOT} backend again`));
    expect(permissionAsks(fx.fullName, "rita")).toBe(before);
    expect(before).toBe(1);
  });

  it("the bot mentioning itself starts nothing", async () => {
    const fx = await mentionProject(double);
    double.setRole(fx.fullName, BOT, "admin");
    const n = nextIssue();
    expect((await play("issue_comment", commentPayload(double, fx.fullName, n, BOT, `@${BOT} backend loop forever`))).outcome).toBe("ignored");
    expect(await workOn(fx.project.id, n)).toEqual([]);
  });

  it("with no mention login set, mentions and assignments start nothing", async () => {
    const fx = await mentionProject(double);
    await getDb().githubConnection.updateMany({ where: { projects: { some: { id: fx.project.id } } }, data: { mentionLogin: null } });
    const n = nextIssue();
    expect((await play("issue_comment", commentPayload(double, fx.fullName, n, "alice", `@${BOT} backend fix it`))).outcome).toBe("ignored");
    expect((await play("issues", assignedPayload(fx.fullName, n, "alice", BOT, "Fix it", "backend"))).outcome).toBe("ignored");
    expect(await workOn(fx.project.id, n)).toEqual([]);
    expect(double.ownComments(fx.fullName, n)).toEqual([]);
  });
});

describe("redeliveries", () => {
  it("the same delivery twice, or the same comment under a new delivery id, makes exactly one prompt and one answer", async () => {
    const fx = await mentionProject(double);
    await runnerAgent(fx.team.id, "backend");
    const n = nextIssue();
    const payload = commentPayload(double, fx.fullName, n, "alice", `@${BOT} backend add a changelog`);
    const first = await play("issue_comment", payload, `mention-${n}`);
    expect(first.outcome).toBe("processed");
    const again = await play("issue_comment", payload, `mention-${n}`);
    expect(again).toMatchObject({ status: 200, body: { duplicate: true }, outcome: null });
    expect((await play("issue_comment", payload)).outcome).toBe("ignored");
    expect(await promptsOf(fx)).toHaveLength(1);
    expect(await workOn(fx.project.id, n)).toHaveLength(1);
    expect(double.ownComments(fx.fullName, n)).toHaveLength(1);
    expect(double.reactionsOn(fx.fullName, `comment:${payload.comment.id}`)).toEqual(["eyes"]);
  });
});

describe("what the issue hears later", () => {
  it("the run's link when it starts, then the failure; each once", async () => {
    const fx = await mentionProject(double);
    await runnerAgent(fx.team.id, "backend");
    const n = nextIssue();
    await play("issue_comment", commentPayload(double, fx.fullName, n, "alice", `@${BOT} backend add a readme`));
    const [w] = await workOn(fx.project.id, n);
    const run = await getDb().run.create({ data: { projectId: fx.project.id, promptId: w.promptId!, kind: "executor", adapter: "demo", status: "running" } });
    await getDb().prompt.update({ where: { id: w.promptId! }, data: { status: "in_progress" } });
    expect(await sendGithubNotices()).toBe(1);
    expect(await sendGithubNotices()).toBe(0);
    await getDb().prompt.update({ where: { id: w.promptId! }, data: { status: "failed", failureLog: "verify failed: npm test exited 1\nmore" } });
    expect(await sendGithubNotices()).toBe(1);
    expect(double.ownComments(fx.fullName, n).slice(1)).toEqual([
      `Working on it: ${APP}/runs/${run.id}`,
      `Failed: verify failed: npm test exited 1. ${APP}/runs/${run.id}`,
    ]);
    expect((await getDb().githubWork.findUniqueOrThrow({ where: { id: w.id } })).notices).toBe(false);
  });
});
