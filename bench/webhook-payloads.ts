// Signed GitHub and Slack requests as the webhook benches send them.
import { createHmac } from "node:crypto";
import { createRequire } from "node:module";

export const FULL_NAME = "acme/widgets";
const examples = createRequire(import.meta.url)("@octokit/webhooks-examples") as { name: string; examples: Record<string, any>[] }[]; // eslint-disable-line @typescript-eslint/no-explicit-any

export function payloadOf(event: string, action: string, edit: (p: any) => void = () => {}): string { // eslint-disable-line @typescript-eslint/no-explicit-any
  const p = structuredClone(examples.find((e) => e.name === event)!.examples.find((x) => x.action === action)!);
  Object.assign(p.repository, { full_name: FULL_NAME, name: "widgets" });
  p.repository.owner.login = "acme";
  edit(p);
  return JSON.stringify(p);
}

export function signedHeaders(event: string, raw: string, secret: string, deliveryId: string) {
  return {
    "content-type": "application/json", "x-github-event": event, "x-github-delivery": deliveryId,
    "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`, "user-agent": "GitHub-Hookshot/bench",
  };
}

// A person's message in a channel no project is mapped to, mentioning no one: verified, stored once,
// queued, then left alone by the worker (no Slack call), so the figure is the intake's own.
export function slackRequest(secret: string, i: number, tag: string) {
  const raw = JSON.stringify({
    type: "event_callback", team_id: "T0BENCH", event_id: `Ev${tag}${i}`,
    event: { type: "message", channel: "C0BENCHUNMAPPED", user: "U0BENCH", text: `note ${i}`, ts: `${1_700_000_000 + i}.${tag.replace(/\W/g, "").slice(-6)}` },
  });
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac("sha256", secret).update(`v0:${ts}:${raw}`).digest("hex")}`;
  return { raw, headers: { "content-type": "application/json", "x-slack-request-timestamp": ts, "x-slack-signature": signature } };
}
