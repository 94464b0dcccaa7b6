import { getDb, type PromptStatus } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { decryptSecret } from "@/lib/crypto/secrets";
import { slackClient } from "@/lib/slack/client";
import { replyInThread } from "@/lib/slack/reply";

export type Notice = { key: string; text: string; final: boolean };
type Seen = { status: PromptStatus; failureLog: string | null; run: { id: string } | null; pr: { number: number; url: string } | null };

const link = (path: string) => new URL(path, getEnv().APP_URL).toString();
const firstLine = (s: string | null) => (s ?? "").split("\n").map((l) => l.trim()).find(Boolean)?.slice(0, 300) ?? null;

/** What the Slack thread should hear next about a prompt made from it; the key says which notice it is. */
export function noticeFor({ status, failureLog, run, pr }: Seen): Notice | null {
  const runText = run ? ` ${link(`/runs/${run.id}`)}` : "";
  if (status === "failed") return { key: "failed", final: true, text: `Failed: ${firstLine(failureLog) ?? "the agent gave up"}.${runText}` };
  if (status === "cancelled") return { key: "cancelled", final: true, text: "Cancelled in Ringmaster." };
  if (status === "done") return { key: "done", final: true, text: pr ? `Done: pull request ${pr.url}` : `Done and merged.${runText}` };
  if (pr) return { key: `pr:${pr.number}`, final: false, text: `Pull request opened: ${pr.url}` };
  if (run) return { key: `run:${run.id}`, final: false, text: `Working on it: ${link(`/runs/${run.id}`)}` };
  return null;
}

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
