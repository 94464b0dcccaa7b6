import { z } from "zod";

// One schema for the settings form and the route.
export const slackConnectionInput = z.object({
  botToken: z.string({ error: "is required" }).trim().regex(/^xoxb-[\w-]{10,}$/, "must be a bot token (xoxb-…)").max(500, "must be at most 500 characters"),
  signingSecret: z.string({ error: "is required" }).trim().regex(/^[0-9a-f]{16,128}$/i, "must be the app's signing secret (hexadecimal)"),
});
export type SlackConnectionInput = z.input<typeof slackConnectionInput>;

export const slackChannelInput = z.object({
  channelId: z.string({ error: "is required" }).trim().regex(/^[CG][A-Z0-9]{2,30}$/, "must be a Slack channel id (C… or G…)"),
  projectId: z.string({ error: "is required" }).trim().min(1, "is required").max(200, "is not a project"),
});
export type SlackChannelInput = z.input<typeof slackChannelInput>;
