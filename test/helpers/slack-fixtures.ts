import { getDb } from "@/lib/db";
import { PUT as putConnection } from "@/app/api/team/slack/route";
import { PUT as putChannel } from "@/app/api/team/slack/channels/route";
import { POST as events } from "@/app/api/webhooks/slack/[connectionId]/route";
import { processSlackDelivery } from "@/lib/slack/process";
import { SlackDouble } from "./slack-double";
import { apiToken, request } from "./api";
import { createTeamWithProject } from "./fixtures";

export const BOT_TOKEN = "xoxb-1111-2222-abcdefghijklmnop";
export const SIGNING_SECRET = "8f742231b10e8888abcd99a1b2c3d4e5";

/** The double, with SLACK_API_URL pointed at it; set before anything reads the configuration. */
export async function startSlackDouble(): Promise<SlackDouble> {
  const double = await new SlackDouble().start();
  double.tokens.add(BOT_TOKEN);
  double.users.set("U0ALICE", { name: "alice", real_name: "Alice Doe" });
  double.users.set("U0BOB", { name: "bob", real_name: "Bob Roe" });
  Object.assign(process.env, { SLACK_API_URL: double.url, ENCRYPTION_KEY: "5e".repeat(32) });
  return double;
}

const noParams = { params: Promise.resolve({}) };

/** A team with a project, Slack connected through the API and one channel mapped to the project. */
export async function slackTeam(double: SlackDouble, channelId = `C0${Math.random().toString(36).slice(2, 10).toUpperCase()}`, given?: Awaited<ReturnType<typeof createTeamWithProject>>) {
  const base = given ?? await createTeamWithProject({ loopEnabled: false });
  const admin = await apiToken(base.team.id, "admin");
  const res = await putConnection(request("PUT", "/api/team/slack", admin, { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET }), noParams);
  if (res.status !== 200) throw new Error(`connect answered ${res.status}: ${await res.text()}`);
  const mapped = await putChannel(request("PUT", "/api/team/slack/channels", admin, { channelId, projectId: base.project.id }), noParams);
  if (mapped.status !== 200) throw new Error(`map answered ${mapped.status}: ${await mapped.text()}`);
  const connection = await getDb().slackConnection.findUniqueOrThrow({ where: { teamId: base.team.id } });
  const url = `http://localhost/api/webhooks/slack/${connection.id}`;
  const call = (req: Request) => events(req, { params: Promise.resolve({ connectionId: connection.id }) });
  /** Slack sends an event: signed, to the route. */
  const send = (event: Record<string, unknown>, opts: { eventId?: string; retryNum?: number; timestamp?: number; secret?: string } = {}) =>
    double.send(call, url, opts.secret ?? SIGNING_SECRET, double.envelope(event, opts.eventId), opts);
  return { ...base, admin, connection, channelId, url, call, send };
}

/** Plays the slack queue's work for a connection's stored events not yet processed, oldest first. */
export async function processStored(connectionId: string): Promise<string[]> {
  const rows = await getDb().webhookDelivery.findMany({ where: { provider: "slack", status: "received", deliveryId: { startsWith: `${connectionId}:` } }, orderBy: { receivedAt: "asc" } });
  const outcomes: string[] = [];
  for (const r of rows) outcomes.push(String(await processSlackDelivery(r.id)));
  return outcomes;
}

/** A runner's agent of the team, online (seen now) unless said otherwise. */
export async function agent(teamId: string, name: string, opts: { role?: "lead" | "worker"; online?: boolean } = {}) {
  return getDb().agent.create({
    data: { teamId, name, role: opts.role ?? "worker", status: opts.online === false ? "offline" : "idle", lastSeenAt: opts.online === false ? new Date(Date.now() - 3_600_000) : new Date() },
  });
}
