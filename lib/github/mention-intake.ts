import { getDb } from "@/lib/db";
import { routeMessage, type Target } from "@/lib/routing/route";
import { routableAgents } from "@/lib/routing/agents";
import { describeWork, type Work } from "@/lib/routing/work";
import { requireClient, type GithubClient } from "@/lib/github/client";
import { hasWriteAccess } from "@/lib/github/permission";
import { mentionRequest, type MentionRequest } from "@/lib/github/mention-request";
import { existingWork, isDuplicate, issueWork, promptFor, turnFor, type GithubOrigin } from "@/lib/github/mention-work";
import { markSeen, replyOn } from "@/lib/github/mention-reply";
import { mentionOnOwnPull } from "@/lib/github/mention-fix";
import { reviewText } from "@/lib/github/mention-review";
import { promptLink, threadLink } from "@/lib/github/mention-links";

/** A request longer than this is refused with a reply: a prompt is a request, not a document. */
export const MAX_REQUEST_CHARS = 20_000;

type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Project = { id: string; teamId: string; planningKey: string; name: string; githubConnectionId: string | null };
type Connection = { id: string; botLogin: string | null; mentionLogin: string | null };
export type MentionOutcome = "processed" | "ignored" | "refused";

async function create(origin: GithubOrigin, project: Project, t: Target, working: Awaited<ReturnType<typeof issueWork>>, title: string, text: string): Promise<Work> {
  const key = t.agentId ?? "lead";
  try {
    if (!t.agentId) return await turnFor(origin, project, { agentId: null, threadId: null, promptId: null }, text);
    if (t.rule === "thread follow-up" && working) return await turnFor(origin, project, { agentId: key, threadId: working.threadId, promptId: working.promptId }, text);
    return await promptFor(origin, project, key, title, text);
  } catch (err) {
    // Another delivery of the same request (a review's other comment) made it meanwhile.
    if (!isDuplicate(err)) throw err;
    return (await existingWork(origin, key))!;
  }
}

async function route(client: GithubClient, project: Project, req: MentionRequest, login: string, now: number): Promise<MentionOutcome> {
  const where = { owner: req.place.owner, repo: req.place.repo, number: req.issueNumber };
  const refuse = async (sentence: string): Promise<MentionOutcome> => (await replyOn(client, where, sentence), "refused");
  const text = req.reviewId ? await reviewText(client, where, req.reviewId, login) : req.text;
  if (!text) return refuse("What should I do? Write the request after the mention.");
  if (text.length > MAX_REQUEST_CHARS) return refuse(`That request is ${text.length} characters long; I take at most ${MAX_REQUEST_CHARS}. Put the details in a file and link it.`);
  const agents = await routableAgents(project.teamId, project.id, now);
  const working = await issueWork(project.id, req.issueNumber);
  const routed = routeMessage({ text, mentionsBot: true, agents, threadAgentId: working?.agentId ?? null });
  if (routed.kind === "refused") return refuse(routed.message);
  if (routed.kind === "none") return "ignored";
  const origin: GithubOrigin = {
    teamId: project.teamId, projectId: project.id, source: req.source, fullName: `${req.place.owner}/${req.place.repo}`,
    issueNumber: req.issueNumber, issueTitle: req.issueTitle, url: req.url, login: req.author,
  };
  const title = req.place.kind === "issue" ? req.issueTitle : text.split("\n")[0].slice(0, 120);
  const work: Work[] = [];
  for (const t of routed.targets) work.push((await existingWork(origin, t.agentId ?? "lead")) ?? (await create(origin, project, t, working, title, text)));
  const unreplied = await getDb().githubWork.findMany({ where: { projectId: project.id, source: req.source, repliedAt: null }, select: { id: true } });
  if (unreplied.length) {
    await markSeen(client, req.place);
    await replyOn(client, where, describeWork(work, routed.targets, agents, { prompt: promptLink, thread: threadLink }));
    await getDb().githubWork.updateMany({ where: { id: { in: unreplied.map((r) => r.id) } }, data: { repliedAt: new Date() } });
  }
  return "processed";
}

/**
 * An issue assigned to the project's mention login, or a comment or review that mentions it,
 * becomes work when its author may push to the repository: on a pull request Ringmaster opened,
 * a fix run (review feedback); anywhere else, a prompt or a lead turn by the shared router.
 * Anyone else gets no run and no answer. Null: the delivery asks for nothing.
 */
export async function handleMention(event: string, p: Payload, project: Project, conn: Connection | null, now = Date.now()): Promise<MentionOutcome | null> {
  const login = conn?.mentionLogin;
  if (!login || !project.githubConnectionId) return null;
  const req = mentionRequest(event, p, login);
  if (!req) return null;
  const self = [login, conn.botLogin ?? ""].map((l) => l.toLowerCase());
  if (!req.author || self.includes(req.author.toLowerCase())) return "ignored";
  const done = await getDb().githubWork.findMany({ where: { projectId: project.id, source: req.source }, select: { repliedAt: true } });
  if (done.length && done.every((w) => w.repliedAt)) return "ignored";
  const { client } = await requireClient(project.githubConnectionId);
  if (!(await hasWriteAccess(client, project.githubConnectionId, req.place.owner, req.place.repo, req.author))) return "refused";
  const pr = req.isPull ? await getDb().pullRequest.findUnique({ where: { projectId_number: { projectId: project.id, number: req.issueNumber } } }) : null;
  if (pr?.state === "open") return mentionOnOwnPull(client, pr, project.teamId, req, login);
  return route(client, project, req, login, now);
}
