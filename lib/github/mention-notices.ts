import { getDb } from "@/lib/db";
import { noticeFor } from "@/lib/routing/notice";
import { requireClient } from "@/lib/github/client";
import { replyOn } from "@/lib/github/mention-reply";

/**
 * One pass over the prompts asked for on GitHub that are still followed: each new notice (the
 * run's link when it starts, the pull request, the failure or the end) is claimed by a
 * conditional update from the last key, so two workers never both post it, then posted as a
 * comment where it was asked. A refused post hands the claim back for the next pass and the others
 * still go; the pass then throws the first failure for its loop to log.
 */
export async function sendGithubNotices(limit = 200): Promise<number> {
  const db = getDb();
  const rows = await db.githubWork.findMany({ where: { notices: true, promptId: { not: null } }, orderBy: { createdAt: "asc" }, take: limit });
  let sent = 0;
  let failure: unknown = null;
  for (const row of rows) {
    const prompt = await db.prompt.findUnique({
      where: { id: row.promptId! },
      select: {
        status: true, failureLog: true,
        runs: { orderBy: { queuedAt: "desc" }, take: 1, select: { id: true, pullRequest: { select: { number: true, url: true } } } },
        pullRequests: { orderBy: { createdAt: "desc" }, take: 1, select: { number: true, url: true } },
      },
    });
    // A fix run's pull request is the one it pushes to, not one its prompt opened.
    const pr = prompt ? prompt.pullRequests[0] ?? prompt.runs[0]?.pullRequest ?? null : null;
    const notice = prompt ? noticeFor({ status: prompt.status, failureLog: prompt.failureLog, run: prompt.runs[0] ?? null, pr }) : { key: "gone", text: "", final: true };
    if (!notice || notice.key === row.noticeKey) continue;
    const claimed = await db.githubWork.updateMany({ where: { id: row.id, noticeKey: row.noticeKey, notices: true }, data: { noticeKey: notice.key, notices: !notice.final } });
    if (claimed.count !== 1 || !notice.text) continue;
    const project = await db.project.findUnique({ where: { id: row.projectId }, select: { githubConnectionId: true } });
    if (!project?.githubConnectionId) continue;
    try {
      const { client } = await requireClient(project.githubConnectionId);
      const [owner, repo] = row.fullName.split("/");
      await replyOn(client, { owner, repo, number: row.issueNumber }, notice.text);
      sent++;
    } catch (err) {
      await db.githubWork.updateMany({ where: { id: row.id, noticeKey: notice.key }, data: { noticeKey: row.noticeKey, notices: true } });
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return sent;
}
