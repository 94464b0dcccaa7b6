import { createHmac, randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createProject, E2E_SLACK_TOKEN, screenshots, signIn } from "./helpers";
import { query } from "./fresh-app";

const SIGNING_SECRET = "0e2e5ac4b1d2c3e4f5a6b7c8d9e0f1a2";

test("Slack connects on the Team page, a channel maps to a project, and a signed message becomes a prompt on its board", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  await signIn(page);
  await createProject(page, `Slack e2e ${suffix}`);
  const projectUrl = page.url();

  await page.goto("/team/tokens");
  await page.getByLabel("Kind").selectOption("runner");
  await page.getByLabel("Name").fill(`slack runner ${suffix}`);
  await page.getByRole("button", { name: "Create token" }).click();
  const runnerToken = (await page.getByTestId("new-token").textContent())!.trim();

  await page.goto("/team");
  const slack = page.getByRole("region", { name: "Slack" });
  await expect(slack).toContainText("Not connected");
  // A token Slack refuses is named beside its field; the right one connects.
  const form = slack.getByRole("form", { name: "Connect Slack" });
  await form.getByLabel("Bot token").fill("xoxb-e2e-0000-notthetoken");
  await form.getByLabel("Signing secret").fill(SIGNING_SECRET);
  await form.getByRole("button", { name: "Connect Slack" }).click();
  await expect(form).toContainText("Bot token was refused by Slack (invalid_auth)");
  await form.getByLabel("Bot token").fill(E2E_SLACK_TOKEN);
  await form.getByRole("button", { name: "Connect Slack" }).click();
  await expect(slack).toContainText("Ringmaster Test");
  await slack.getByRole("button", { name: "Test connection" }).click();
  await expect(slack.getByRole("status")).toHaveText("Slack answers: connected to Ringmaster Test as U0BOT0001.");

  const channel = `C0E2E${suffix.toUpperCase()}`;
  const mapForm = slack.getByRole("form", { name: "Map a channel" });
  await mapForm.getByLabel("Slack channel").fill(channel);
  await mapForm.getByLabel("Project").selectOption({ label: `Slack e2e ${suffix}` });
  await mapForm.getByRole("button", { name: "Map channel" }).click();
  await expect(slack.getByTestId("slack-channels")).toContainText(`Slack e2e ${suffix}`);
  await slack.getByText("Setting up the Slack app").click();
  const eventsUrl = (await slack.getByTestId("slack-events-url").textContent())!.trim();
  expect(eventsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/webhooks\/slack\/c[a-z0-9]+$/);
  await screenshots(page, "slack-settings");

  // A runner's worker agent, online, that a message can name.
  const agentName = `slackbot${suffix}`;
  const agentId = randomUUID();
  const registered = await fetch(`${baseURL}/api/runner/agents`, {
    method: "POST", headers: { authorization: `Bearer ${runnerToken}`, "x-agent-id": agentId, "content-type": "application/json" },
    body: JSON.stringify({ name: agentName, role: "worker" }),
  });
  expect(registered.status).toBe(201);

  // Slack sends the message, signed with the app's secret.
  const messageTs = `${Math.floor(Date.now() / 1000)}.000200`;
  const body = JSON.stringify({
    type: "event_callback", team_id: "T0RINGMSTR", event_id: `Ev${suffix}`,
    event: { type: "message", channel, user: "U0ALICE", text: `${agentName} add a dark mode toggle`, ts: messageTs },
  });
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac("sha256", SIGNING_SECRET).update(`v0:${ts}:${body}`).digest("hex")}`;
  const forged = await fetch(eventsUrl, { method: "POST", body, headers: { "content-type": "application/json", "x-slack-request-timestamp": ts, "x-slack-signature": "v0=00" } });
  expect(forged.status).toBe(401);
  const sent = await fetch(eventsUrl, { method: "POST", body, headers: { "content-type": "application/json", "x-slack-request-timestamp": ts, "x-slack-signature": signature } });
  expect(sent.status).toBe(200);
  expect(await sent.json()).toEqual({ accepted: true });

  // The workers route it: the stored message is processed (its row says so, or why not: a failed
  // try is retried by the queue and leaves its error)...
  const db = process.env.E2E_DATABASE_URL!;
  const deliveryId = `${eventsUrl.split("/").pop()}:${channel}:${messageTs}`;
  const tries = new Set<string>();
  await expect.poll(async () => {
    const [row] = await query<{ status: string; error: string | null }>(db, `SELECT status, error FROM "WebhookDelivery" WHERE provider = 'slack' AND "deliveryId" = $1`, [deliveryId]);
    if (row?.error) tries.add(row.error);
    return row ?? null;
  }, { timeout: 60_000, message: "the Slack message's delivery row, processed" }).toEqual({ status: "processed", error: null });
  // A try that failed and was retried is no fault of the intake, but the report says so.
  for (const error of tries) test.info().annotations.push({ type: "retried Slack event", description: error });
  // Routed to the named agent as a prompt (a turn in the lead's thread would not be on the board).
  expect(await query(db, `SELECT target, "agentId", "promptId" IS NOT NULL AS "hasPrompt" FROM "SlackWork" WHERE "channelId" = $1 AND "messageTs" = $2`, [channel, messageTs]))
    .toEqual([{ target: agentId, agentId, hasPrompt: true }]);
  // ...and the prompt is on the project's board, pinned to the agent, with a link to the Slack
  // message (its permalink, as Slack's chat.getPermalink gives it).
  await page.goto(projectUrl);
  const card = page.getByTestId("prompt-card").filter({ hasText: `${agentName} add a dark mode toggle` });
  await expect(card).toBeVisible({ timeout: 30_000 });
  const permalink = `https://ringmaster-test.slack.com/archives/${channel}/p${messageTs.replace(".", "")}`;
  await expect(card.getByTestId("prompt-source")).toHaveText(`for ${agentName} · asked in Slack ↗`);
  await expect(card.getByRole("link", { name: "asked in Slack ↗" })).toHaveAttribute("href", permalink);
  await card.scrollIntoViewIfNeeded();
  await screenshots(page, "slack-board");
  await card.getByRole("link", { name: new RegExp(`${agentName} add a dark mode toggle`) }).click();
  await expect(page.getByText(`Asked in Slack by Alice Doe, channel ${channel}`)).toBeVisible();
  await expect(page.getByRole("link", { name: "asked in Slack ↗" })).toHaveAttribute("href", permalink);
  await screenshots(page, "slack-prompt");
});
