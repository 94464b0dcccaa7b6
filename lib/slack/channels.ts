import { getDb } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { requireProject } from "@/lib/auth/actor";
import { AccessError } from "@/lib/auth/access";
import { recordAudit } from "@/lib/audit/record";
import { requireSlackConnection } from "@/lib/slack/connection";
import { slackChannelInput, type SlackChannelInput } from "@/lib/slack/schema";

export async function listSlackChannels(actor: Actor) {
  const connection = await requireSlackConnection(actor);
  const rows = await getDb().slackChannel.findMany({
    where: { connectionId: connection.id }, include: { project: { select: { name: true } } }, orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => ({ channelId: r.channelId, projectId: r.projectId, projectName: r.project.name }));
}

/** Maps a channel to one of the team's projects (a channel maps to one project; again replaces it). */
export async function mapSlackChannel(actor: Actor, raw: SlackChannelInput) {
  const connection = await requireSlackConnection(actor);
  const { channelId, projectId } = slackChannelInput.parse(raw);
  const project = await requireProject(actor, projectId, "admin");
  const key = { connectionId_channelId: { connectionId: connection.id, channelId } };
  await getDb().$transaction(async (tx) => {
    await tx.slackChannel.upsert({ where: key, create: { connectionId: connection.id, channelId, projectId: project.id }, update: { projectId: project.id } });
    await recordAudit({ teamId: actor.teamId, by: actor, action: "slack.channel_mapped", target: { type: "project", id: project.id }, after: { channelId } }, tx);
  });
  return { channelId, projectId: project.id, projectName: project.name };
}

export async function unmapSlackChannel(actor: Actor, channelId: string): Promise<void> {
  const connection = await requireSlackConnection(actor);
  await getDb().$transaction(async (tx) => {
    const n = await tx.slackChannel.deleteMany({ where: { connectionId: connection.id, channelId } });
    if (n.count === 0) throw new AccessError(404, "channel not mapped");
    await recordAudit({ teamId: actor.teamId, by: actor, action: "slack.channel_unmapped", target: { type: "slackConnection", id: connection.id }, before: { channelId } }, tx);
  });
}
