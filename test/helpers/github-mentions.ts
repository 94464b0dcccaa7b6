// Fixtures of the GitHub mention tests: a connected project listening for @ringmaster-bot, writers
// and readers known to the double, runner agents, and deliveries played through the route and the
// github queue's processor.
import { expect } from "vitest";
import { getDb } from "@/lib/db";
import { processDelivery } from "@/lib/github/deliveries";
import { PATCH as patchConnection } from "@/app/api/projects/[id]/github/route";
import { createGithubProject, deliver, example } from "./github-fixtures";
import { params, request } from "./api";
import type { GithubDouble } from "./github-double";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export const BOT = "ringmaster-bot";

/** A GitHub project whose mention login is the double's own account; alice may write, rita only read. */
export async function mentionProject(double: GithubDouble) {
  const fx = await createGithubProject(double);
  const res = await patchConnection(request("PATCH", `/api/projects/${fx.project.id}/github`, fx.token, { mentionLogin: `@${BOT}` }), params(fx.project.id));
  expect(res.status).toBe(200);
  double.setRole(fx.fullName, "alice", "write");
  double.setRole(fx.fullName, "mona", "maintain");
  double.setRole(fx.fullName, "rita", "read");
  double.setRole(fx.fullName, "tom", "triage");
  return fx;
}

/** A runner agent of the team, online (seen now) unless said otherwise. */
export async function runnerAgent(teamId: string, name: string, opts: { role?: "lead" | "worker"; online?: boolean } = {}) {
  return getDb().agent.create({
    data: { teamId, name, role: opts.role ?? "worker", status: opts.online === false ? "offline" : "idle", lastSeenAt: opts.online === false ? new Date(Date.now() - 3_600_000) : new Date() },
  });
}

let issues = 100;
export const nextIssue = () => ++issues;

/** GitHub delivers `event` (signed, through the route) and the github queue processes it. */
export async function play(event: string, payload: Json, deliveryId?: string) {
  const d = await deliver(event, payload, undefined, deliveryId);
  return { ...d, outcome: d.status === 202 ? await processDelivery(d.deliveryId) : null };
}

/** The real `issue_comment.created` payload, by `login` on issue (or pull request) `number`. */
export function commentPayload(double: GithubDouble, fullName: string, number: number, login: string, body: string, opts: { pull?: boolean } = {}) {
  const made = double.addComment(fullName, number, login, body);
  return example("issue_comment", "created", fullName, (p) => {
    Object.assign(p.issue, { number, title: `Issue ${number}`, html_url: `https://github.com/${fullName}/issues/${number}` });
    if (opts.pull) p.issue.pull_request = { url: `https://api.github.com/repos/${fullName}/pulls/${number}` };
    else delete p.issue.pull_request;
    Object.assign(p.comment, { id: made.id, body, html_url: `https://github.com/${fullName}/issues/${number}#issuecomment-${made.id}`, performed_via_github_app: null });
    p.comment.user.login = login;
    p.sender.login = login;
  });
}

/** The real `issues.assigned` payload: `by` assigned issue `number` to `assignee`. */
export function assignedPayload(fullName: string, number: number, by: string, assignee: string, title: string, body: string) {
  return example("issues", "assigned", fullName, (p) => {
    Object.assign(p.issue, { id: 9_000_000 + number, number, title, body, html_url: `https://github.com/${fullName}/issues/${number}` });
    delete p.issue.pull_request;
    p.assignee.login = assignee;
    p.sender.login = by;
  });
}

export const workOn = (projectId: string, issueNumber: number) =>
  getDb().githubWork.findMany({ where: { projectId, issueNumber }, orderBy: { createdAt: "asc" } });
