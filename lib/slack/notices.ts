import { getDb } from "@/lib/db";
import { noticeFor } from "@/lib/routing/notice";
import { decryptSecret } from "@/lib/crypto/secrets";
import { slackClient } from "@/lib/slack/client";
import { replyInThread } from "@/lib/slack/reply";

/**
 * One pass over the prompts made from Slack that are still followed: each new notice is claimed
 * (a conditional update from the last key, so two workers never both send it) and then posted in
 * the message's thread. A failed post hands the claim back for the next pass and the
 * others still go; the pass then throws the first failure for its loop to log.
 */
export async function sendSlackNotices(limit = 200): Promise<number> {
  const db = getDb();
  const rows = await db.slackWork.findMany({ where: { notices: true, promptId: { not: null } }, orderBy: { createdAt: "asc" }, take: limit });
  let sent = 0;
  let failure: unknown = null;
  for (const row of rows) {
    const prompt = await db.prompt.findUnique({
      where: { id: row.promptId! },
      select: { status: true, failureLog: true, runs: { orderBy: { queuedAt: "desc" }, take: 1, select: { id: true } }, pullRequests: { orderBy: { createdAt: "desc" }, take: 1, select: { number: true, url: true } } },
    });
    const notice = prompt ? noticeFor({ status: prompt.status, failureLog: prompt.failureLog, run: prompt.runs[0] ?? null, pr: prompt.pullRequests[0] ?? null }) : { key: "gone", text: "", final: true };
    if (!notice || notice.key === row.noticeKey) continue;
    const claimed = await db.slackWork.updateMany({ where: { id: row.id, noticeKey: row.noticeKey, notices: true }, data: { noticeKey: notice.key, notices: !notice.final } });
    if (claimed.count !== 1 || !notice.text) continue;
    const conn = await db.slackConnection.findUnique({ where: { teamId: row.teamId } });
    if (!conn) continue;
    try {
      await replyInThread(slackClient(decryptSecret(conn.encryptedBotToken)), { channel: row.channelId, ts: row.messageTs, threadTs: row.threadTs }, notice.text);
      sent++;
    } catch (err) {
      await db.slackWork.updateMany({ where: { id: row.id, noticeKey: notice.key }, data: { noticeKey: row.noticeKey, notices: true } });
      // One workspace refusing must not hold up the others' notices; the loop logs it.
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return sent;
}
