import { mentions, withoutMention } from "@/lib/github/mention-text";
import type { Place } from "@/lib/github/mention-reply";

type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A request for work found in a delivery: an issue assigned to the bot or a comment mentioning it. */
export interface MentionRequest {
  /** One request, however many deliveries carry it: a review and its comments share theirs. */
  source: string;
  place: Place;
  /** Who asked: the commenter, or whoever assigned the issue. */
  author: string;
  /** The request without the bot's mention; a review's is read whole from GitHub later. */
  text: string;
  issueNumber: number;
  issueTitle: string;
  isPull: boolean;
  url: string;
  reviewId: number | null;
}

const same = (a: unknown, b: string) => typeof a === "string" && a.toLowerCase() === b.toLowerCase();
const str = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * The request a delivery carries for the bot `login`, or null when it carries none. Only new
 * words count: an edited comment or review asks for nothing again.
 */
export function mentionRequest(event: string, p: Payload, login: string): MentionRequest | null {
  const [owner, repo] = str(p.repository?.full_name).split("/");
  if (!owner || !repo) return null;
  const base = { owner, repo };
  if (event === "issues" && p.action === "assigned" && same(p.assignee?.login, login) && p.issue?.number && p.sender?.login) {
    const i = p.issue;
    return {
      source: `issue:${i.id}`, place: { kind: "issue", ...base, number: i.number }, author: p.sender.login,
      text: withoutMention(`${str(i.title)}\n\n${str(i.body)}`, login), issueNumber: i.number, issueTitle: str(i.title),
      isPull: Boolean(i.pull_request), url: str(i.html_url), reviewId: null,
    };
  }
  if (event === "issue_comment" && p.action === "created" && p.issue?.number && p.comment?.id && mentions(str(p.comment.body), login)) {
    const c = p.comment;
    return {
      source: `comment:${c.id}`, place: { kind: "comment", ...base, number: p.issue.number, commentId: c.id }, author: str(c.user?.login),
      text: withoutMention(str(c.body), login), issueNumber: p.issue.number, issueTitle: str(p.issue.title),
      isPull: Boolean(p.issue.pull_request), url: str(c.html_url), reviewId: null,
    };
  }
  if (event === "pull_request_review_comment" && p.action === "created" && p.pull_request?.number && p.comment?.id && mentions(str(p.comment.body), login)) {
    const c = p.comment;
    const reviewId = typeof c.pull_request_review_id === "number" ? c.pull_request_review_id : null;
    return {
      source: reviewId ? `review:${reviewId}` : `review-comment:${c.id}`, place: { kind: "review-comment", ...base, number: p.pull_request.number, commentId: c.id },
      author: str(c.user?.login), text: withoutMention(str(c.body), login), issueNumber: p.pull_request.number, issueTitle: str(p.pull_request.title),
      isPull: true, url: str(c.html_url), reviewId,
    };
  }
  if (event === "pull_request_review" && p.action === "submitted" && p.pull_request?.number && p.review?.id && mentions(str(p.review.body), login)) {
    const r = p.review;
    return {
      source: `review:${r.id}`, place: { kind: "review", ...base, number: p.pull_request.number }, author: str(r.user?.login),
      text: withoutMention(str(r.body), login), issueNumber: p.pull_request.number, issueTitle: str(p.pull_request.title),
      isPull: true, url: str(r.html_url), reviewId: r.id,
    };
  }
  return null;
}
