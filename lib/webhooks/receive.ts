import { receiveGithubDelivery } from "@/lib/github/intake";
import { receiveSlackEvent } from "@/lib/slack/intake";

/** A request header by its lower-case name: web `Headers` and the worker's listener both give one. */
export type HeaderSource = Pick<Headers, "get">;

/** Where a delivery goes: GitHub's webhook, or one Slack connection's Events API endpoint. */
export type WebhookEndpoint = { provider: "github" } | { provider: "slack"; connectionId: string };

export interface WebhookAnswer { status: number; body: Record<string, unknown> }

// GitHub caps a delivery at 25 MB; anything larger is not GitHub. Slack's events are a few
// kilobytes; a megabyte is far past any real one.
const MAX_BYTES = { github: 25 * 1024 * 1024, slack: 1024 * 1024 } as const;
const TOO_LARGE = { github: "a delivery is at most 25 MB", slack: "an event is at most 1 MB" } as const;

export const maxBodyBytes = (endpoint: WebhookEndpoint) => MAX_BYTES[endpoint.provider];

/** The answer to a body past `maxBodyBytes`, abandoned before it was read whole. */
export const tooLarge = (endpoint: WebhookEndpoint): WebhookAnswer =>
  ({ status: 413, body: { error: { code: "too_large", message: TOO_LARGE[endpoint.provider] } } });

const SLACK_PATH = /^\/api\/webhooks\/slack\/([^/]+)$/;

/** The endpoint a path names (the same paths as the web app's routes), or null. */
export function webhookEndpoint(pathname: string): WebhookEndpoint | null {
  if (pathname === "/api/webhooks/github") return { provider: "github" };
  const slack = SLACK_PATH.exec(pathname);
  return slack ? { provider: "slack", connectionId: decodeURIComponent(slack[1]) } : null;
}

/**
 * The one intake both the web app's routes and the worker's listener call with the raw body
 * (read within `maxBodyBytes`): verified before anything is stored, stored once, enqueued.
 */
export function receiveWebhook(endpoint: WebhookEndpoint, headers: HeaderSource, raw: string): Promise<WebhookAnswer> {
  return endpoint.provider === "github" ? receiveGithubDelivery(headers, raw) : receiveSlackEvent(endpoint.connectionId, headers, raw);
}
