import { z } from "zod";
import { getDb, type SlackConnectionModel as SlackConnection } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { requireRole, requireTeamScope, type Actor } from "@/lib/auth/actor";
import { AccessError } from "@/lib/auth/access";
import { recordAudit } from "@/lib/audit/record";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secrets";
import { slackClient, slackErrorOf } from "@/lib/slack/client";
import { slackConnectionInput, type SlackConnectionInput } from "@/lib/slack/schema";
import { forgetSigningSecrets } from "@/lib/slack/intake";

const invalid = (field: string, message: string) => new z.ZodError([{ code: "custom", path: [field], message, input: undefined }]);

function requireAdmin(actor: Actor) {
  requireTeamScope(actor);
  requireRole(actor, "admin");
}

/** What the API shows of a connection: never the token or the secret. */
export const slackConnectionView = (c: SlackConnection) => ({
  workspaceId: c.workspaceId, workspaceName: c.workspaceName, botUserId: c.botUserId, createdAt: c.createdAt, updatedAt: c.updatedAt,
  eventsUrl: new URL(`/api/webhooks/slack/${c.id}`, getEnv().APP_URL).toString(),
});

type Identity = { workspaceId: string; workspaceName: string | null; botUserId: string };

async function whoAmI(token: string): Promise<Identity> {
  const answer = await slackClient(token).auth.test();
  if (!answer.team_id || !answer.user_id) throw new Error("auth.test named no workspace or bot user");
  return { workspaceId: answer.team_id, workspaceName: answer.team ?? null, botUserId: answer.user_id };
}

/** Connects (or replaces) the team's Slack app; Slack must accept the token first. */
export async function connectSlack(actor: Actor, raw: SlackConnectionInput) {
  requireAdmin(actor);
  const { botToken, signingSecret } = slackConnectionInput.parse(raw);
  let who: Identity;
  try {
    who = await whoAmI(botToken);
  } catch (err) {
    throw invalid("botToken", `was refused by Slack (${slackErrorOf(err)})`);
  }
  const data = { ...who, encryptedBotToken: encryptSecret(botToken), encryptedSigningSecret: encryptSecret(signingSecret) };
  const row = await getDb().$transaction(async (tx) => {
    const before = await tx.slackConnection.findUnique({ where: { teamId: actor.teamId } });
    const saved = await tx.slackConnection.upsert({ where: { teamId: actor.teamId }, create: { teamId: actor.teamId, ...data }, update: data });
    // Who the bot is, never its token or secret.
    await recordAudit({ teamId: actor.teamId, by: actor, action: before ? "slack.replaced" : "slack.connected", target: { type: "slackConnection", id: saved.id },
      after: { workspaceId: who.workspaceId, workspaceName: who.workspaceName, botUserId: who.botUserId } }, tx);
    return saved;
  });
  forgetSigningSecrets();
  return slackConnectionView(row);
}

export async function getSlackConnection(actor: Actor) {
  requireAdmin(actor);
  const row = await getDb().slackConnection.findUnique({ where: { teamId: actor.teamId } });
  return row ? slackConnectionView(row) : null;
}

export async function requireSlackConnection(actor: Actor): Promise<SlackConnection> {
  requireAdmin(actor);
  const row = await getDb().slackConnection.findUnique({ where: { teamId: actor.teamId } });
  if (!row) throw new AccessError(404, "Slack is not connected");
  return row;
}

export async function disconnectSlack(actor: Actor): Promise<void> {
  const row = await requireSlackConnection(actor);
  await getDb().$transaction(async (tx) => {
    await tx.slackConnection.delete({ where: { id: row.id } });
    await recordAudit({ teamId: actor.teamId, by: actor, action: "slack.disconnected", target: { type: "slackConnection", id: row.id } }, tx);
  });
  forgetSigningSecrets();
}

export type SlackCheck = { ok: true; workspaceId: string; workspaceName: string | null; botUserId: string } | { ok: false; message: string };

/** The settings' "Test connection": Slack's auth.test with the stored token, read now. */
export async function testSlackConnection(actor: Actor): Promise<SlackCheck> {
  const row = await requireSlackConnection(actor);
  try {
    const who = await whoAmI(decryptSecret(row.encryptedBotToken));
    if (who.workspaceId !== row.workspaceId) return { ok: false, message: `the token now belongs to workspace ${who.workspaceId}, not ${row.workspaceId}: connect again` };
    return { ok: true, ...who };
  } catch (err) {
    return { ok: false, message: `Slack refused the stored token (${slackErrorOf(err)})` };
  }
}
