import type { WebClient } from "@slack/web-api";
import { getDb } from "@/lib/db";
import { routableAgents } from "@/lib/routing/agents";
import { describeWork, type Work } from "@/lib/routing/work";
import { routeMessage } from "@/lib/routing/route";
import { existingWork, promptFor, turnFor, type SlackOrigin } from "@/lib/slack/dispatch";
import { slackErrorOf } from "@/lib/slack/client";
import { markSeen, permalinkOf, promptLink, replyInThread, threadLink, type Place } from "@/lib/slack/reply";
import { RATE_PER_MINUTE, withinRate } from "@/lib/slack/rate";

export { RATE_PER_MINUTE };

/** A request longer than this is refused with a reply: a prompt is a request, not a document. */
export const MAX_REQUEST_CHARS = 8000;

export interface SlackMessage { channel: string; ts: string; threadTs: string | null; user: string; text: string; type: string }
type Connection = { teamId: string; botUserId: string };
export type Outcome = "processed" | "ignored" | "refused";

/** The agent working on a Slack thread: the newest one whose prompt from it is not finished. */
async function threadWork(teamId: string, channelId: string, threadTs: string) {
  const db = getDb();
  const rows = await db.slackWork.findMany({ where: { teamId, channelId, threadTs, agentId: { not: null }, promptId: { not: null } }, orderBy: { createdAt: "desc" }, take: 20 });
  const live = await db.prompt.findMany({ where: { id: { in: rows.map((r) => r.promptId!) }, status: { in: ["pending", "in_progress"] } }, select: { id: true } });
  const ids = new Set(live.map((p) => p.id));
  return rows.find((r) => ids.has(r.promptId!)) ?? null;
}

/** Who the Slack user is; null when Slack does not know them. */
async function userName(client: WebClient, user: string): Promise<string | null> {
  try {
    const answer = await client.users.info({ user });
    return answer.user?.real_name || answer.user?.name || user;
  } catch (err) {
    if (["user_not_found", "user_not_visible"].includes(slackErrorOf(err))) return null;
    throw err;
  }
}

/** Routes one Slack message into prompts and thread turns, and answers in its Slack thread. */
export async function handleSlackMessage(conn: Connection, client: WebClient, msg: SlackMessage, now = Date.now()): Promise<Outcome> {
  const threadTs = msg.threadTs ?? msg.ts;
  const place: Place = { channel: msg.channel, ts: msg.ts, threadTs };
  const mention = `<@${conn.botUserId}>`;
  const mentionsBot = msg.type === "app_mention" || msg.text.includes(mention);
  const text = msg.text.split(mention).join(" ").replace(/[ \t]+/g, " ").trim();
  const refuse = async (sentence: string): Promise<Outcome> => (await replyInThread(client, place, sentence), "refused");

  const mapping = await getDb().slackChannel.findFirst({ where: { channelId: msg.channel, connection: { teamId: conn.teamId } }, include: { project: true } });
  if (!mapping) return mentionsBot ? refuse("This channel is not connected to a Ringmaster project yet: a team admin can map it under Team → Slack.") : "ignored";
  const project = mapping.project;
  if (project.archivedAt) return mentionsBot ? refuse(`Project ${project.name} is archived, so it takes no new work. Ask a team admin to restore it or map this channel to another project.`) : "ignored";

  const agents = await routableAgents(conn.teamId, project.id, now);
  const working = msg.threadTs ? await threadWork(conn.teamId, msg.channel, threadTs) : null;
  const route = routeMessage({ text, mentionsBot, agents, threadAgentId: working?.agentId ?? null });
  if (route.kind === "none") return "ignored";
  if (route.kind === "refused") return refuse(route.message);
  if (!text) return refuse("What should I do? Write the request after the mention.");
  if (text.length > MAX_REQUEST_CHARS) return refuse(`That request is ${text.length} characters long; I take at most ${MAX_REQUEST_CHARS}. Put the details in a file or an issue and link it.`);
  const name = await userName(client, msg.user);
  if (!name) return refuse("Slack could not tell me who you are, so I did not start anything.");

  const origin: SlackOrigin = { teamId: conn.teamId, channelId: msg.channel, messageTs: msg.ts, threadTs, slackUserId: msg.user, userName: name, permalink: null };
  const done = await Promise.all(route.targets.map((t) => existingWork(origin, t.agentId ?? "lead")));
  if (done.every((d) => !d) && !(await withinRate(conn.teamId, msg.user, `${msg.channel}:${msg.ts}`, now))) {
    return refuse(`You have sent me ${RATE_PER_MINUTE} requests in the last minute; please wait a moment and ask again.`);
  }
  await markSeen(client, place);
  // A new prompt links back to the message on the board.
  if (route.targets.some((t, i) => !done[i] && t.agentId && !(t.rule === "thread follow-up" && working))) origin.permalink = await permalinkOf(client, place);
  const work: Work[] = [];
  for (const [i, t] of route.targets.entries()) {
    const key = t.agentId ?? "lead";
    const existing = done[i];
    if (existing) work.push(existing);
    else if (!t.agentId) work.push(await turnFor(origin, project, { agentId: null, threadId: null, promptId: null }, text));
    else if (t.rule === "thread follow-up" && working) work.push(await turnFor(origin, project, { agentId: key, threadId: working.threadId, promptId: working.promptId }, text));
    else work.push(await promptFor(origin, project, key, text));
  }
  const unreplied = await getDb().slackWork.findMany({ where: { teamId: conn.teamId, channelId: msg.channel, messageTs: msg.ts, repliedAt: null }, select: { id: true } });
  if (unreplied.length) {
    await replyInThread(client, place, describeWork(work, route.targets, agents, { prompt: promptLink, thread: threadLink }));
    await getDb().slackWork.updateMany({ where: { id: { in: unreplied.map((r) => r.id) } }, data: { repliedAt: new Date() } });
  }
  return "processed";
}
