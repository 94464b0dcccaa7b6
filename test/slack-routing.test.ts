import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { archiveProject } from "@/lib/projects/update";
import { RATE_PER_MINUTE, MAX_REQUEST_CHARS } from "@/lib/slack/handle";
import { withinRate } from "@/lib/slack/rate";
import { claimPromptForRun } from "@/lib/runs/claim";
import { sendSlackNotices } from "@/lib/slack/notices";
import { agent, processStored, slackTeam, startSlackDouble } from "./helpers/slack-fixtures";

const double = await startSlackDouble();
afterAll(() => double.stop());

type Team = Awaited<ReturnType<typeof slackTeam>>;
const BOT = "<@U0BOT0001>";

/** Slack sends a person's message and the slack queue routes it; returns the message's ts. */
async function say(t: Team, text: string, opts: { user?: string; threadTs?: string; channel?: string } = {}) {
  const ts = double.ts();
  const res = await t.send({ type: "message", channel: opts.channel ?? t.channelId, user: opts.user ?? "U0ALICE", text, ts, ...(opts.threadTs ? { thread_ts: opts.threadTs } : {}) });
  expect(res.status).toBe(200);
  await processStored(t.connection.id);
  return ts;
}

const workOf = (t: Team, ts: string) => getDb().slackWork.findMany({ where: { teamId: t.team.id, messageTs: ts }, orderBy: { target: "asc" } });
const promptsOf = (t: Team) => getDb().prompt.findMany({ where: { projectId: t.project.id }, orderBy: { number: "asc" } });
const repliesTo = (threadTs: string) => double.called("chat.postMessage").filter((c) => c.args.thread_ts === threadTs).map((c) => c.args.text);

describe("routing a Slack message, rule by rule", () => {
  let t: Team;
  let ids: Record<string, string>;
  beforeAll(async () => {
    t = await slackTeam(double);
    const made = await Promise.all([
      agent(t.team.id, "backend"), agent(t.team.id, "frontend"), agent(t.team.id, "sleepy", { online: false }), agent(t.team.id, "boss", { role: "lead" }),
    ]);
    ids = Object.fromEntries(made.map((a) => [a.name, a.id]));
  });

  // Each case: the message, then the targets its work went to (agent name, or "lead") and what it became.
  it.each([
    ["rm#<agent id> → that agent", (): string => `${BOT} rm#${ids.frontend} restyle the footer`, [["frontend", "prompt"]]],
    ["rm#all → every online worker, the offline one's share to the lead", (): string => "rm#all bump the lockfile", [["backend", "prompt"], ["frontend", "prompt"], ["lead", "turn"]]],
    ["a name (≥ 3 characters) → that agent, no mention needed", (): string => "backend the login 500s", [["backend", "prompt"]]],
    ["a name's start → that agent", (): string => `${BOT} front: the logo is blurry`, [["frontend", "prompt"]]],
    ["several names → the lead", (): string => `${BOT} backend or frontend, whoever is free`, [["lead", "turn"]]],
    ["a bare bot mention → the lead", (): string => `${BOT} what is everyone doing?`, [["lead", "turn"]]],
    ["an offline agent → the lead", (): string => `${BOT} sleepy please look`, [["lead", "turn"]]],
  ] as const)("%s", async (_name, text, expected) => {
    const before = (await promptsOf(t)).length;
    const ts = await say(t, text());
    const work = await workOf(t, ts);
    const nameOf = (agentId: string | null) => (agentId ? Object.keys(ids).find((n) => ids[n] === agentId) : "lead");
    expect(work.map((w) => [nameOf(w.agentId), w.promptId && w.agentId ? "prompt" : "turn"]).sort()).toEqual([...expected].map((e) => [...e]).sort());
    // Every piece carries where it came from.
    for (const w of work) expect(w).toMatchObject({ channelId: t.channelId, threadTs: ts, slackUserId: "U0ALICE", projectId: t.project.id });
    expect((await promptsOf(t)).length - before).toBe(expected.filter((e) => e[1] === "prompt").length);
    // 👀 on the message, one answer in its thread with the links.
    expect(double.called("reactions.add").filter((c) => c.args.timestamp === ts).map((c) => c.args.name)).toEqual(["eyes"]);
    expect(repliesTo(ts)).toHaveLength(1);
    for (const w of work.filter((x) => x.agentId)) expect(repliesTo(ts)[0]).toContain(`http://localhost:3000/prompts/${w.promptId}`);
  });

  it("a prompt from Slack says who asked, where, and lands on the board with its thread", async () => {
    const ts = await say(t, "backend: add a health check\nwith a test");
    const [w] = await workOf(t, ts);
    const prompt = await getDb().prompt.findUniqueOrThrow({ where: { id: w.promptId! }, include: { thread: true } });
    // Pinned to the agent it was routed to, linking back to the message (Slack's chat.getPermalink).
    expect(prompt).toMatchObject({
      title: "backend: add a health check", status: "pending", origin: "user", pinnedAgentId: ids.backend,
      sourceUrl: `https://ringmaster-test.slack.com/archives/${t.channelId}/p${ts.replace(".", "")}`,
    });
    expect(double.called("chat.getPermalink").filter((c) => c.args.message_ts === ts).map((c) => c.args.channel)).toEqual([t.channelId]);
    expect(prompt.body).toBe(`backend: add a health check\nwith a test\n\n(Asked in Slack by Alice Doe, channel ${t.channelId}, thread ${ts}.)`);
    expect(prompt.thread!.id).toBe(w.threadId);
    expect(repliesTo(ts)).toEqual([`Queued for backend: http://localhost:3000/prompts/${prompt.id}`]);
  });

  it("a permalink Slack will not give leaves the prompt without a link, made all the same", async () => {
    double.failNext("chat.getPermalink", "message_not_found");
    const ts = await say(t, "backend: add a readiness check");
    const [w] = await workOf(t, ts);
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: w.promptId! } })).toMatchObject({ status: "pending", sourceUrl: null, pinnedAgentId: ids.backend });
    expect(repliesTo(ts)).toEqual([`Queued for backend: http://localhost:3000/prompts/${w.promptId}`]);
  });

  it("a lead turn is a person's turn in the Slack thread's Ringmaster thread", async () => {
    const ts = await say(t, `${BOT} how is the release going?`);
    const [w] = await workOf(t, ts);
    const turns = await getDb().turn.findMany({ where: { threadId: w.threadId! } });
    expect(turns.map((x) => [x.actor, x.actorId, x.content, x.status])).toEqual([["person", "slack:U0ALICE", "Alice Doe (Slack): how is the release going?", "sent"]]);
    expect(repliesTo(ts)).toEqual([`Passed to the lead in http://localhost:3000/threads/${w.threadId}`]);
    // No prompt, so no link to look up.
    expect(double.called("chat.getPermalink").filter((c) => c.args.message_ts === ts)).toEqual([]);
  });

  it("a message that names nobody and mentions no one is not for us: no work, no answer", async () => {
    const ts = await say(t, "lunch anyone?");
    expect(await workOf(t, ts)).toEqual([]);
    expect(repliesTo(ts)).toEqual([]);
    expect(double.called("reactions.add").filter((c) => c.args.timestamp === ts)).toEqual([]);
  });
});

describe("a Slack thread's follow-ups", () => {
  it("go to the agent working on it without a mention, into the same Ringmaster thread; naming another agent goes to that one", async () => {
    const t = await slackTeam(double);
    const backend = await agent(t.team.id, "backend");
    const frontend = await agent(t.team.id, "frontend");
    const root = await say(t, `${BOT} backend fix the flaky login test`);
    const [first] = await workOf(t, root);
    expect(first.agentId).toBe(backend.id);

    const reply = await say(t, "it fails on CI only", { threadTs: root });
    const [follow] = await workOf(t, reply);
    expect(follow).toMatchObject({ agentId: backend.id, promptId: first.promptId, threadId: first.threadId, threadTs: root });
    expect((await promptsOf(t)).length).toBe(1);
    const turns = await getDb().turn.findMany({ where: { threadId: first.threadId! }, orderBy: { seq: "asc" } });
    expect(turns.map((x) => x.content)).toEqual(["Alice Doe (Slack): it fails on CI only"]);
    expect(repliesTo(root).at(-1)).toBe(`Passed to backend in http://localhost:3000/threads/${first.threadId}`);

    // A bare mention in the thread still has its working agent: it is a follow-up too.
    const mention = await say(t, `${BOT} any news?`, { threadTs: root, user: "U0BOB" });
    expect((await workOf(t, mention))[0]).toMatchObject({ agentId: backend.id, threadId: first.threadId });

    // Naming someone else in the thread is that agent's new prompt, not a follow-up.
    const other = await say(t, "frontend also check the login form", { threadTs: root });
    const [o] = await workOf(t, other);
    expect(o.agentId).toBe(frontend.id);
    expect(o.promptId).not.toBe(first.promptId);
    expect((await promptsOf(t)).length).toBe(2);

    // Once the agent's prompt is done, a reply without a mention is nobody's.
    await getDb().prompt.update({ where: { id: first.promptId! }, data: { status: "done" } });
    await getDb().prompt.update({ where: { id: o.promptId! }, data: { status: "done" } });
    const late = await say(t, "thanks all", { threadTs: root });
    expect(await workOf(t, late)).toEqual([]);
  });
});

describe("a job that fails half-way", () => {
  it("is retried without a second prompt or a second answer", async () => {
    const t = await slackTeam(double);
    await agent(t.team.id, "backend");
    double.failNext("chat.postMessage", "fatal_error");
    const ts = double.ts();
    await t.send({ type: "message", channel: t.channelId, user: "U0ALICE", text: "backend: add a changelog", ts });
    const row = await getDb().webhookDelivery.findFirstOrThrow({ where: { provider: "slack", deliveryId: `${t.connection.id}:${t.channelId}:${ts}` } });
    const { processSlackDelivery } = await import("@/lib/slack/process");
    await expect(processSlackDelivery(row.id)).rejects.toThrow("fatal_error");
    // The prompt was made before the answer failed; the row went back for the queue's retry.
    expect(await getDb().webhookDelivery.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "received", error: "An API error occurred: fatal_error" });
    expect(await processSlackDelivery(row.id)).toBe("processed");
    expect(await getDb().prompt.count({ where: { projectId: t.project.id } })).toBe(1);
    expect(repliesTo(ts)).toHaveLength(2); // the refused one and the one that arrived
    expect(double.called("reactions.add").filter((c) => c.args.timestamp === ts)).toHaveLength(2); // the second answered already_reacted
  });
});

describe("a stored event that is no JSON", () => {
  it("goes back with the parse error for the job's retry, not left claimed", async () => {
    const t = await slackTeam(double);
    const ts = double.ts();
    await t.send({ type: "message", channel: t.channelId, user: "U0ALICE", text: `${BOT} damaged`, ts });
    const row = await getDb().webhookDelivery.findFirstOrThrow({ where: { provider: "slack", deliveryId: `${t.connection.id}:${t.channelId}:${ts}` } });
    await getDb().webhookDelivery.update({ where: { id: row.id }, data: { payload: "{damaged" } });
    let parseError = "";
    try { JSON.parse("{damaged"); } catch (err) { parseError = (err as Error).message; }
    const { processSlackDelivery } = await import("@/lib/slack/process");
    await expect(processSlackDelivery(row.id)).rejects.toThrow(parseError);
    expect(await getDb().webhookDelivery.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "received", processedAt: null, error: parseError });
    expect(await workOf(t, ts)).toEqual([]);
  });
});

describe("the Slack thread hears how the work goes", () => {
  it("a run's link when it starts, the pull request, then the failure: each once, then no more", async () => {
    const t = await slackTeam(double);
    await agent(t.team.id, "backend");
    const ts = await say(t, "backend: speed up the search page");
    const [w] = await workOf(t, ts);
    const notices = () => repliesTo(ts).slice(1);
    await sendSlackNotices();
    expect(notices()).toEqual([]);

    const claimed = await claimPromptForRun({
      projectId: t.project.id, promptId: w.promptId!, profile: t.profile, routing: {}, now: new Date(), limits: { maxExecutors: 5, cooldownMs: 0 },
    });
    await sendSlackNotices();
    await sendSlackNotices();
    expect(notices()).toEqual([`Working on it: http://localhost:3000/runs/${claimed!.run.id}`]);

    await getDb().pullRequest.create({ data: { projectId: t.project.id, promptId: w.promptId!, number: 42, url: "https://github.com/acme/shop/pull/42", headBranch: "rm/p1", baseBranch: "main" } });
    await sendSlackNotices();
    expect(notices().at(-1)).toBe("Pull request opened: https://github.com/acme/shop/pull/42");

    await getDb().prompt.update({ where: { id: w.promptId! }, data: { status: "failed", failureLog: "\nverify failed: 3 tests red\nmore detail" } });
    await sendSlackNotices();
    await sendSlackNotices();
    expect(notices()).toEqual([
      `Working on it: http://localhost:3000/runs/${claimed!.run.id}`,
      "Pull request opened: https://github.com/acme/shop/pull/42",
      `Failed: verify failed: 3 tests red. http://localhost:3000/runs/${claimed!.run.id}`,
    ]);
    expect(await getDb().slackWork.findUniqueOrThrow({ where: { id: w.id } })).toMatchObject({ notices: false, noticeKey: "failed" });
  });

  it("a notice Slack refused is sent again on the next pass", async () => {
    const t = await slackTeam(double);
    await agent(t.team.id, "backend");
    const ts = await say(t, "backend: one more thing");
    const [w] = await workOf(t, ts);
    await getDb().prompt.update({ where: { id: w.promptId! }, data: { status: "cancelled" } });
    double.failNext("chat.postMessage", "ratelimited");
    await expect(sendSlackNotices()).rejects.toThrow("ratelimited");
    expect(await getDb().slackWork.findUniqueOrThrow({ where: { id: w.id } })).toMatchObject({ notices: true, noticeKey: null });
    await sendSlackNotices();
    // The refused post, then the one Slack took.
    expect(repliesTo(ts).slice(1)).toEqual(["Cancelled in Ringmaster.", "Cancelled in Ringmaster."]);
    expect(await getDb().slackWork.findUniqueOrThrow({ where: { id: w.id } })).toMatchObject({ notices: false, noticeKey: "cancelled" });
  });
});

describe("a worker that died holding an event", () => {
  it("leaves it to the job's retry, which takes it over once the claim is stale", async () => {
    const t = await slackTeam(double);
    const ts = double.ts();
    await t.send({ type: "message", channel: t.channelId, user: "U0ALICE", text: `${BOT} left behind`, ts });
    const row = await getDb().webhookDelivery.findFirstOrThrow({ where: { provider: "slack", deliveryId: `${t.connection.id}:${t.channelId}:${ts}` } });
    await getDb().webhookDelivery.update({ where: { id: row.id }, data: { status: "processing", processedAt: new Date() } });
    const { processSlackDelivery } = await import("@/lib/slack/process");
    await expect(processSlackDelivery(row.id)).rejects.toThrow("being processed elsewhere");
    expect(await workOf(t, ts)).toEqual([]);
    expect(await processSlackDelivery(row.id, new Date(Date.now() + 3 * 60_000))).toBe("processed");
    expect(await workOf(t, ts)).toHaveLength(1);
    expect(await processSlackDelivery(row.id)).toBeNull();
  });
});

describe("limits", () => {
  it(`takes ${RATE_PER_MINUTE} messages per person per minute, then answers politely and creates nothing`, async () => {
    const t = await slackTeam(double);
    for (let i = 0; i < RATE_PER_MINUTE; i++) await say(t, `${BOT} task ${i}`, { user: "U0BOB" });
    const over = await say(t, `${BOT} one more`, { user: "U0BOB" });
    expect(await workOf(t, over)).toEqual([]);
    expect(repliesTo(over)).toEqual([`You have sent me ${RATE_PER_MINUTE} requests in the last minute; please wait a moment and ask again.`]);
    expect(await getDb().slackWork.count({ where: { teamId: t.team.id, slackUserId: "U0BOB" } })).toBe(RATE_PER_MINUTE);
    // A refused message uses no quota: Bob's next minute is his again (the limit is a sliding minute).
    expect(await withinRate(t.team.id, "U0BOB", `${t.channelId}:later`, Date.now() + 61_000)).toBe(true);
    // Someone else is not held up by Bob.
    const alice = await say(t, `${BOT} mine`, { user: "U0ALICE" });
    expect(await workOf(t, alice)).toHaveLength(1);
  });
});

describe("the rate limit under concurrency", () => {
  it("holds when several workers handle one person's burst at the same moment", async () => {
    const t = await slackTeam(double);
    const sent: string[] = [];
    for (let i = 0; i < RATE_PER_MINUTE + 5; i++) {
      const ts = double.ts();
      sent.push(ts);
      await t.send({ type: "message", channel: t.channelId, user: "U0BOB", text: `${BOT} burst ${i}`, ts });
    }
    const rows = await getDb().webhookDelivery.findMany({ where: { provider: "slack", deliveryId: { startsWith: `${t.connection.id}:` } } });
    const { processSlackDelivery } = await import("@/lib/slack/process");
    const outcomes = await Promise.all(rows.map((r) => processSlackDelivery(r.id)));
    expect(outcomes.filter((o) => o === "processed")).toHaveLength(RATE_PER_MINUTE);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(5);
    expect(await getDb().slackWork.count({ where: { teamId: t.team.id } })).toBe(RATE_PER_MINUTE);
    const polite = sent.flatMap((ts) => repliesTo(ts)).filter((x) => x.startsWith("You have sent me"));
    expect(polite).toHaveLength(5);
  });
});

describe("bad input is answered in the thread, with nothing half-created", () => {
  const nothingFrom = async (t: Team, ts: string) => {
    expect(await workOf(t, ts)).toEqual([]);
    expect(await getDb().prompt.count({ where: { projectId: t.project.id } })).toBe(0);
    expect(await getDb().thread.count({ where: { projectId: t.project.id } })).toBe(0);
    expect(double.called("reactions.add").filter((c) => c.args.timestamp === ts)).toEqual([]);
  };

  it.each([
    ["an unknown channel", (t: Team) => say(t, `${BOT} do it`, { channel: "C0UNMAPPED9" }), "This channel is not connected to a Ringmaster project yet: a team admin can map it under Team → Slack."],
    ["an unknown agent id", (t: Team) => say(t, `${BOT} rm#nobody123 do it`), "I know no agent with id `nobody123`. Use `rm#<agent id>` with an id from the Runners page, or `rm#all`."],
    ["an oversized message", (t: Team) => say(t, `${BOT} ${"x".repeat(MAX_REQUEST_CHARS + 1)}`), `That request is ${MAX_REQUEST_CHARS + 1} characters long; I take at most ${MAX_REQUEST_CHARS}. Put the details in a file or an issue and link it.`],
    ["a user Slack does not know", (t: Team) => say(t, `${BOT} do it`, { user: "U0GHOST" }), "Slack could not tell me who you are, so I did not start anything."],
    ["a mention with no request", (t: Team) => say(t, BOT), "What should I do? Write the request after the mention."],
  ] as const)("%s", async (_name, act, sentence) => {
    const t = await slackTeam(double);
    const ts = await act(t);
    expect(repliesTo(ts)).toEqual([sentence]);
    await nothingFrom(t, ts);
  });

  it("a channel of an archived project", async () => {
    const t = await slackTeam(double);
    await archiveProject(t.project);
    const ts = await say(t, `${BOT} do it`);
    expect(repliesTo(ts)).toEqual([`Project ${t.project.name} is archived, so it takes no new work. Ask a team admin to restore it or map this channel to another project.`]);
    await nothingFrom(t, ts);
  });
});
