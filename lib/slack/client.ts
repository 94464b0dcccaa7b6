import { LogLevel, WebClient, type Logger } from "@slack/web-api";
import { getEnv } from "@/lib/env";

// The client's own logger would print request details; ours stays quiet and logs outcomes.
const quiet: Logger = {
  debug: () => {}, info: () => {}, warn: () => {}, error: () => {},
  setLevel: () => {}, getLevel: () => LogLevel.ERROR, setName: () => {},
};

/**
 * A Web API client for one bot token, at SLACK_API_URL. A few quick retries only: a call that
 * keeps failing fails its job, and the queue retries the job later without holding a worker.
 */
export function slackClient(token: string): WebClient {
  return new WebClient(token, {
    slackApiUrl: getEnv().SLACK_API_URL,
    logger: quiet,
    allowAbsoluteUrls: false,
    timeout: 10_000,
    retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 },
  });
}

/** Slack's error code of a refused call ("invalid_auth", "channel_not_found"), else the message. */
export const slackErrorOf = (err: unknown): string =>
  (err as { data?: { error?: string } }).data?.error ?? (err as Error).message;
