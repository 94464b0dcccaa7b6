import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getQueue, sentOrdersDeleted } from "@/lib/queues";
import { GET as getConnection, PUT as putConnection } from "@/app/api/team/slack/route";
import { POST as testConnection } from "@/app/api/team/slack/test/route";
import { PUT as putChannel } from "@/app/api/team/slack/channels/route";
import { POST as events } from "@/app/api/webhooks/slack/[connectionId]/route";
import { BOT_TOKEN, processStored, SIGNING_SECRET, slackTeam, startSlackDouble } from "./helpers/slack-fixtures";
import { apiToken, request } from "./helpers/api";
import { createTeamWithProject } from "./helpers/fixtures";

const double = await startSlackDouble();
afterAll(() => double.stop());
const noParams = { params: Promise.resolve({}) };

const slackRows = () => getDb().webhookDelivery.findMany({ where: { provider: "slack" } });
const outboxRows = () => getDb().outbox.findMany({ where: { kind: "slack" } });

describe("Slack connection", () => {
  it("stores the bot token and signing secret encrypted, shows neither, and knows the bot", async () => {
    const { team, admin, connection } = await slackTeam(double);
    expect(connection).toMatchObject({ workspaceId: "T0RINGMSTR", workspaceName: "Ringmaster Test", botUserId: "U0BOT0001" });
    expect(connection.encryptedBotToken).toMatch(/^v1\./);
    expect(connection.encryptedBotToken).not.toContain(BOT_TOKEN);
    expect(connection.encryptedSigningSecret).not.toContain(SIGNING_SECRET);
    const shown = await (await getConnection(request("GET", "/api/team/slack", admin), noParams)).json();
    expect(shown.connection).toEqual({
      workspaceId: "T0RINGMSTR", workspaceName: "Ringmaster Test", botUserId: "U0BOT0001",
      createdAt: connection.createdAt.toISOString(), updatedAt: connection.updatedAt.toISOString(),
      eventsUrl: `http://localhost:3000/api/webhooks/slack/${connection.id}`,
    });
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { teamId: team.id, action: "slack.connected" } });
    const logged = JSON.stringify({ ...audit, id: String(audit.id) });
    expect(logged).not.toContain(BOT_TOKEN);
    expect(logged).not.toContain(SIGNING_SECRET);
    // Slack was asked who the bot is, with the token, and nothing else.
    expect(double.called("auth.test").at(-1)).toMatchObject({ token: BOT_TOKEN });
  });

  it("Test connection asks Slack now, and says when the token stopped working", async () => {
    const { admin } = await slackTeam(double);
    const ok = await (await testConnection(request("POST", "/api/team/slack/test", admin), noParams)).json();
    expect(ok).toEqual({ ok: true, workspaceId: "T0RINGMSTR", workspaceName: "Ringmaster Test", botUserId: "U0BOT0001" });
    double.tokens.delete(BOT_TOKEN);
    try {
      const refused = await (await testConnection(request("POST", "/api/team/slack/test", admin), noParams)).json();
      expect(refused).toEqual({ ok: false, message: "Slack refused the stored token (invalid_auth)" });
    } finally {
      double.tokens.add(BOT_TOKEN);
    }
  });

  it("refuses a token Slack refuses, and bad fields, naming them and storing nothing", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const refused = await putConnection(request("PUT", "/api/team/slack", admin, { botToken: "xoxb-9999-not-a-real-token", signingSecret: SIGNING_SECRET }), noParams);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ field: "botToken", message: "Bot token was refused by Slack (invalid_auth)" });
    const bad = await putConnection(request("PUT", "/api/team/slack", admin, { botToken: "xoxp-user-token", signingSecret: "nope" }), noParams);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toEqual({ botToken: "Bot token must be a bot token (xoxb-…)", signingSecret: "Signing secret must be the app's signing secret (hexadecimal)" });
    expect(await getDb().slackConnection.count({ where: { teamId: team.id } })).toBe(0);
  });

  it("is for admins only, and maps channels only to the team's own projects", async () => {
    const { team, admin } = await slackTeam(double);
    const operator = await apiToken(team.id, "operator");
    expect((await getConnection(request("GET", "/api/team/slack", operator), noParams)).status).toBe(403);
    const other = await createTeamWithProject({ loopEnabled: false });
    const res = await putChannel(request("PUT", "/api/team/slack/channels", admin, { channelId: "C0OTHER1", projectId: other.project.id }), noParams);
    expect(res.status).toBe(404);
    const badChannel = await putChannel(request("PUT", "/api/team/slack/channels", admin, { channelId: "general", projectId: other.project.id }), noParams);
    expect((await badChannel.json()).error).toMatchObject({ field: "channelId", message: "Slack channel must be a Slack channel id (C… or G…)" });
  });
});

describe("Slack Events API intake", () => {
  it("answers url_verification with the challenge", async () => {
    const t = await slackTeam(double);
    const res = await double.send(t.call, t.url, SIGNING_SECRET, { token: "x", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P", type: "url_verification" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
  });

  it("refuses forged, stale and unsigned requests with 401 and stores nothing", async () => {
    const t = await slackTeam(double);
    await sentOrdersDeleted();
    const before = { rows: (await slackRows()).length, outbox: (await outboxRows()).length };
    const event = { type: "message", channel: t.channelId, user: "U0ALICE", text: `<@U0BOT0001> hello`, ts: double.ts() };
    const forged = await t.send(event, { secret: "0123456789abcdef0123456789abcdef" });
    const stale = await t.send(event, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    const future = await t.send(event, { timestamp: Math.floor(Date.now() / 1000) + 6 * 60 });
    const unsigned = await t.call(new Request(t.url, { method: "POST", body: JSON.stringify(double.envelope(event)) }));
    // A well-signed request for a connection that does not exist is refused the same way.
    const elsewhere = await double.send((req) => events(req, { params: Promise.resolve({ connectionId: "cnotaconnection" }) }), t.url, SIGNING_SECRET, double.envelope(event));
    expect([forged.status, stale.status, future.status, unsigned.status]).toEqual([401, 401, 401, 401]);
    expect((await forged.json()).error).toEqual({ code: "unauthenticated", message: "signature does not match" });
    expect((await stale.json()).error.message).toBe("the request timestamp is more than 5 minutes away");
    expect((await unsigned.json()).error.message).toBe("needs X-Slack-Request-Timestamp and X-Slack-Signature");
    expect(elsewhere.status).toBe(401);
    expect({ rows: (await slackRows()).length, outbox: (await outboxRows()).length }).toEqual(before);
  });

  it("keeps a message whose text carries NUL or a lone surrogate, without them", async () => {
    const t = await slackTeam(double);
    const ts = double.ts();
    const res = await t.send({ type: "message", channel: t.channelId, user: "U0ALICE", text: "<@U0BOT0001> fix\u0000 the \ud800 parser", ts });
    expect(await res.json()).toEqual({ accepted: true });
    expect(await processStored(t.connection.id)).toEqual(["processed"]);
    const turns = await getDb().turn.findMany({ where: { thread: { projectId: t.project.id } } });
    expect(turns.map((x) => x.content)).toEqual(["Alice Doe (Slack): fix the \ufffd parser"]);
  });

  it("ignores bot messages, edits, deletions and joins, storing nothing", async () => {
    const t = await slackTeam(double);
    const before = (await slackRows()).length;
    const ignored = [
      { type: "message", subtype: "bot_message", bot_id: "B1", channel: t.channelId, text: "rm#all deploy", ts: double.ts() },
      { type: "message", bot_id: "B1", user: "U0OTHERBOT", channel: t.channelId, text: "<@U0BOT0001> hi", ts: double.ts() },
      { type: "message", subtype: "message_changed", channel: t.channelId, message: { user: "U0ALICE", text: "<@U0BOT0001> edited" }, ts: double.ts() },
      { type: "message", subtype: "message_deleted", channel: t.channelId, ts: double.ts() },
      { type: "message", subtype: "channel_join", user: "U0ALICE", channel: t.channelId, text: "joined", ts: double.ts() },
      { type: "message", user: "U0BOT0001", channel: t.channelId, text: "my own words", ts: double.ts() },
      { type: "reaction_added", user: "U0ALICE", reaction: "eyes", item: { channel: t.channelId }, ts: double.ts() },
    ];
    for (const e of ignored) {
      const res = await t.send(e);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ignored: true });
    }
    expect((await slackRows()).length).toBe(before);
  });

  it("stores a message once however often Slack delivers it, and routes it once", async () => {
    const t = await slackTeam(double);
    const ts = double.ts();
    const event = { type: "message", channel: t.channelId, user: "U0ALICE", text: "<@U0BOT0001> tidy the README", ts };
    const first = await t.send(event, { eventId: "Ev0RETRY01" });
    // Slack's retries: the same event id with X-Slack-Retry-Num, and the app_mention twin of the message.
    const retry1 = await t.send(event, { eventId: "Ev0RETRY01", retryNum: 1 });
    const retry2 = await t.send(event, { eventId: "Ev0RETRY01", retryNum: 2 });
    const twin = await t.send({ ...event, type: "app_mention" }, { eventId: "Ev0RETRY02" });
    expect(await first.json()).toEqual({ accepted: true });
    expect(await Promise.all([retry1.json(), retry2.json(), twin.json()])).toEqual([{ duplicate: true }, { duplicate: true }, { duplicate: true }]);
    const rows = await getDb().webhookDelivery.findMany({ where: { provider: "slack", deliveryId: `${t.connection.id}:${t.channelId}:${ts}` } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event: "message", action: "Ev0RETRY01", status: "received" });
    // The work order is in the slack queue (or still in the outbox for the relay), once.
    const job = await getQueue("slack").getJob(`slack-${rows[0].id}`);
    await sentOrdersDeleted();
    const waiting = (await outboxRows()).filter((o) => (o.payload as { deliveryRowId: string }).deliveryRowId === rows[0].id);
    expect((job ? 1 : 0) + waiting.length).toBe(1);

    expect(await processStored(t.connection.id)).toEqual(["processed"]);
    const turns = await getDb().turn.findMany({ where: { thread: { projectId: t.project.id } } });
    expect(turns.map((x) => x.content)).toEqual(["Alice Doe (Slack): tidy the README"]);
    // A second play of the same row does nothing: it is claimed once.
    const { processSlackDelivery } = await import("@/lib/slack/process");
    expect(await processSlackDelivery(rows[0].id)).toBeNull();
    expect(await getDb().slackWork.count({ where: { teamId: t.team.id } })).toBe(1);
    expect(double.called("reactions.add").filter((c) => c.args.timestamp === ts)).toHaveLength(1);
    expect(double.called("chat.postMessage").filter((c) => c.args.thread_ts === ts)).toHaveLength(1);
  });
});
