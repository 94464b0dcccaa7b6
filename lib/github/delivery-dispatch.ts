import { getDb } from "@/lib/db";
import { sendViaOutbox } from "@/lib/queues";
import { checkCiStatus } from "@/lib/github/checks";
import { mergeIfAllowed } from "@/lib/github/merge-policy";
import { applyPullState, type GithubPullView } from "@/lib/github/pull-state";
import { checkReviewFeedback } from "@/lib/github/review-check";
import { isOwn } from "@/lib/github/review";
import { writtenByUs } from "@/lib/github/self";
import { handleMention } from "@/lib/github/mention-intake";

export type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export type Outcome = "processed" | "ignored" | "refused";

async function openPull(projectId: string, number: number | undefined) {
  if (!number) return null;
  const pr = await getDb().pullRequest.findUnique({ where: { projectId_number: { projectId, number } } });
  // A merged or closed PR gets no more fixes (and so no pushes), whatever is said on it.
  return pr?.state === "open" ? pr : null;
}

async function onFeedback(projectId: string, botLogin: string | null, author: string | undefined, number: number | undefined): Promise<Outcome> {
  // Ringmaster's own comments (its rerun request above all) never start anything: it never answers itself.
  if (!author || isOwn(author, botLogin)) return "ignored";
  const pr = await openPull(projectId, number);
  if (!pr) return "ignored";
  await checkReviewFeedback(pr.id);
  return "processed";
}

async function onChecks(projectId: string, sha: string | undefined): Promise<Outcome> {
  if (!sha) return "ignored";
  const prs = await getDb().pullRequest.findMany({ where: { projectId, headSha: sha, state: "open" } });
  for (const pr of prs) {
    const result = await checkCiStatus(pr.id);
    if (result?.verdict.state === "success") await mergeIfAllowed(pr.id);
  }
  return prs.length ? "processed" : "ignored";
}

// Events that can start work; pull_request and push only sync state or wake the loop.
const TRIGGERS = new Set(["pull_request_review", "pull_request_review_comment", "issue_comment", "check_run", "check_suite", "status"]);

/** The project a delivery is for, as processing it needs it. */
export type ProjectView = {
  id: string; teamId: string; planningKey: string; name: string; baseBranch: string; githubConnectionId: string | null;
  githubConnection: { id: string; botLogin: string | null; appId: string | null; mentionLogin: string | null } | null;
};

/** What one stored delivery makes Ringmaster do, by its event; throws to be retried. */
export async function dispatch(event: string, p: Payload, project: ProjectView): Promise<Outcome> {
  const bot = project.githubConnection?.botLogin ?? null;
  if (TRIGGERS.has(event) && writtenByUs(p, { botLogin: bot, appId: project.githubConnection?.appId ?? null })) return "ignored";
  // A request for work (the bot assigned or mentioned) is handled as one; anything else as before.
  const mention = () => handleMention(event, p, project, project.githubConnection);
  // On a pull request, feedback that is no heard request (a refused mention included: a review
  // bot mentioning us) is still checked as review feedback, as it always was.
  const feedback = async (author: string | undefined, number: number | undefined): Promise<Outcome> => {
    const asked = await mention();
    if (asked && asked !== "refused") return asked;
    const checked = await onFeedback(project.id, bot, author, number);
    return asked ?? checked;
  };
  switch (event) {
    case "issues":
      return (await mention()) ?? "ignored";
    case "pull_request":
      if (!["opened", "closed", "reopened", "synchronize", "edited"].includes(p.action)) return "ignored";
      return (await applyPullState(project.id, p.pull_request as GithubPullView)) ? "processed" : "ignored";
    case "pull_request_review": {
      if (p.action !== "submitted" && p.action !== "edited") return "ignored";
      const outcome = await feedback(p.review?.user?.login, p.pull_request?.number);
      if (outcome === "processed" && p.review?.state === "approved") {
        const pr = await openPull(project.id, p.pull_request?.number);
        if (pr) await mergeIfAllowed(pr.id);
      }
      return outcome;
    }
    case "pull_request_review_comment":
      if (p.action !== "created" && p.action !== "edited") return "ignored";
      return feedback(p.comment?.user?.login, p.pull_request?.number);
    case "issue_comment":
      if (p.action !== "created" && p.action !== "edited") return "ignored";
      return p.issue?.pull_request ? feedback(p.comment?.user?.login, p.issue?.number) : (await mention()) ?? "ignored";
    case "check_run":
      return p.action === "completed" ? onChecks(project.id, p.check_run?.head_sha) : "ignored";
    case "check_suite":
      return p.action === "completed" ? onChecks(project.id, p.check_suite?.head_sha) : "ignored";
    case "status":
      return p.state === "pending" ? "ignored" : onChecks(project.id, p.sha);
    case "push":
      if (p.ref !== `refs/heads/${project.baseBranch}`) return "ignored";
      await sendViaOutbox([{ kind: "tick", projectId: project.id, reason: "base branch pushed" }]);
      return "processed";
    default:
      return "ignored";
  }
}
