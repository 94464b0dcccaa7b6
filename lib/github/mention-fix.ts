import { getDb, type PullRequestModel as PullRequest } from "@/lib/db";
import type { GithubClient } from "@/lib/github/client";
import { checkReviewFeedback } from "@/lib/github/review-check";
import type { FixOutcome } from "@/lib/github/fix-run";
import { markSeen, replyOn } from "@/lib/github/mention-reply";
import type { MentionRequest } from "@/lib/github/mention-request";
import { runLink } from "@/lib/github/mention-links";

type Outcome = "processed" | "ignored";

// What the person hears when their mention starts no fix; each said once per request.
const SAY: Partial<Record<FixOutcome, string>> = {
  busy: "A fix run is already working on this pull request; mention me again once it has pushed.",
  capped: "This pull request has had as many fix runs as its project allows; a person decides in Ringmaster whether another one runs.",
  no_profile: "This project has no executor agent profile, so no fix run can start. An admin can choose one in the project's settings.",
  over_budget: "The team's budget does not allow another run now, so nothing started.",
};

/**
 * A writer's mention on a pull request Ringmaster opened is review feedback: the same check as a
 * review's, so a review with many comments (many deliveries) starts one fix run under the pull
 * request's lock. The request is recorded as `fix` work in the run's own transaction, so a
 * racing delivery of the same review finds it and says nothing again.
 */
export async function mentionOnOwnPull(client: GithubClient, pr: PullRequest, teamId: string, req: MentionRequest, login: string): Promise<Outcome> {
  const db = getDb();
  const key = { projectId_source_target: { projectId: pr.projectId, source: req.source, target: "fix" } };
  const row = (over: { promptId: string | null; notices: boolean }) => ({
    teamId, projectId: pr.projectId, source: req.source, target: "fix", fullName: `${req.place.owner}/${req.place.repo}`,
    issueNumber: pr.number, githubUser: req.author, noticeKey: over.notices ? `pr:${pr.number}` : null, ...over,
  });
  let work = await db.githubWork.findUnique({ where: key });
  let say: string | undefined;
  if (!work) {
    const outcome = await checkReviewFeedback(pr.id, {
      login, author: req.author,
      // Followed from here: the run is announced now, its end (pushed or failed) later.
      alongside: async (tx, made) => { await tx.githubWork.create({ data: row({ promptId: made.promptId, notices: true }) }); },
    });
    say = SAY[outcome];
    if (outcome !== "started" && !say) return "ignored";
    if (say) {
      const made = await db.githubWork.createMany({ data: [row({ promptId: null, notices: false })], skipDuplicates: true });
      if (made.count === 0) return "ignored";
    }
    work = await db.githubWork.findUniqueOrThrow({ where: key });
  }
  if (work.repliedAt) return "ignored";
  const where = { owner: req.place.owner, repo: req.place.repo, number: pr.number };
  const run = work.promptId ? await db.run.findFirst({ where: { promptId: work.promptId }, select: { id: true } }) : null;
  if (run) {
    await markSeen(client, req.place);
    await replyOn(client, where, `Working on it: a fix run on this pull request's branch, ${runLink(run.id)}`);
  } else {
    await replyOn(client, where, say ?? SAY.busy!);
  }
  await db.githubWork.update({ where: { id: work.id }, data: { repliedAt: new Date() } });
  return "processed";
}
