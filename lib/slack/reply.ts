import type { WebClient } from "@slack/web-api";
import { getEnv } from "@/lib/env";
import { slackErrorOf } from "@/lib/slack/client";

export type Place = { channel: string; ts: string; threadTs: string };

/** An answer in the message's Slack thread. */
export async function replyInThread(client: WebClient, place: Place, text: string): Promise<void> {
  await client.chat.postMessage({ channel: place.channel, thread_ts: place.threadTs, text, unfurl_links: false });
}

/** 👀 on the message: work started. Already there (a retried job) is fine. */
export async function markSeen(client: WebClient, place: Place): Promise<void> {
  try {
    await client.reactions.add({ channel: place.channel, timestamp: place.ts, name: "eyes" });
  } catch (err) {
    if (slackErrorOf(err) !== "already_reacted") throw err;
  }
}

/** The message's permalink, for the board to link back to; null when Slack will not say (the work goes on without it). */
export async function permalinkOf(client: WebClient, place: Place): Promise<string | null> {
  try {
    const answer = await client.chat.getPermalink({ channel: place.channel, message_ts: place.ts });
    return answer.permalink && /^https:\/\//.test(answer.permalink) ? answer.permalink : null;
  } catch {
    return null;
  }
}

export const promptLink = (id: string) => new URL(`/prompts/${id}`, getEnv().APP_URL).toString();
export const threadLink = (id: string) => new URL(`/threads/${id}`, getEnv().APP_URL).toString();
