import { getDb } from "@/lib/db";
import { decryptSecret } from "@/lib/crypto/secrets";
import { NOTICES_TITLE } from "@/lib/threads/notices";
import { slackClient } from "@/lib/slack/client";

type Claimed = { id: string; content: string; projectId: string };

/**
 * Forwards what Ringmaster posted in a project's notices thread (budget alerts) to each Slack
 * channel mapped to that project, once: a turn is claimed by stamping it (two workers never both
 * send it) and handed back when Slack refused it, for the next pass. Only turns written after a
 * channel was mapped go there: mapping a channel does not replay old alerts.
 */
export async function forwardNoticesToSlack(limit = 100): Promise<number> {
  const db = getDb();
  const claimed = await db.$queryRaw<Claimed[]>`
    UPDATE "Turn" t SET "slackSentAt" = now()
    FROM "Thread" th
    WHERE t."threadId" = th.id AND th."promptId" IS NULL AND th.title = ${NOTICES_TITLE}
      AND t.actor = 'system' AND t."slackSentAt" IS NULL
      AND t.id IN (
        SELECT t2.id FROM "Turn" t2 JOIN "Thread" th2 ON th2.id = t2."threadId"
        JOIN "SlackChannel" c ON c."projectId" = th2."projectId"
        WHERE th2."promptId" IS NULL AND th2.title = ${NOTICES_TITLE} AND t2.actor = 'system'
          AND t2."slackSentAt" IS NULL AND t2."createdAt" >= c."createdAt"
        ORDER BY t2."createdAt" LIMIT ${limit})
    RETURNING t.id, t.content, th."projectId"`;
  let sent = 0;
  let failure: unknown = null;
  for (const turn of claimed) {
    const channels = await db.slackChannel.findMany({ where: { projectId: turn.projectId }, include: { connection: true } });
    try {
      for (const c of channels) {
        await slackClient(decryptSecret(c.connection.encryptedBotToken)).chat.postMessage({ channel: c.channelId, text: turn.content, unfurl_links: false });
      }
      sent++;
    } catch (err) {
      // A channel that refused gets it again next pass (one that took it may see it twice: at least once).
      await db.turn.update({ where: { id: turn.id }, data: { slackSentAt: null } });
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return sent;
}
