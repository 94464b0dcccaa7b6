// Seed 000's PR-review detection, pure: parse the PR URL, pick the feedback newer than the last
// review run, compare the previous and current review state, and write the fix prompt.

export interface PrRef { owner: string; repo: string; number: number }

export function parsePRUrl(url: string): PrRef | null {
  const m = /^https?:\/\/[^/]+\/([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+)\/pull\/(\d+)\/?$/.exec(url.trim());
  return m ? { owner: m[1], repo: m[2], number: Number(m[3]) } : null;
}

export interface FeedbackItem {
  kind: "review" | "inline" | "comment";
  id: number;
  author: string;
  body: string;
  createdAt: string;
  path?: string;
  line?: number | null;
  state?: string;
}

export interface ReviewState { count: number; latestAt: string | null }

const lower = (s: string) => s.toLowerCase();

export const isOwn = (author: string, botLogin: string | null) => !!botLogin && lower(author) === lower(botLogin);

/** Feedback newer than the last review run, never Ringmaster's own words. */
export function freshFeedback(items: FeedbackItem[], lastReviewRunTime: Date | null, botLogin: string | null): FeedbackItem[] {
  const since = lastReviewRunTime?.getTime() ?? 0;
  return items
    .filter((i) => !isOwn(i.author, botLogin) && Date.parse(i.createdAt) > since && (i.body.trim() || i.kind === "review"))
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
}

/** A review counts when its text or its author names the detection string (default "greptile"). */
export function matchesDetection(item: FeedbackItem, detection: string): boolean {
  const needle = lower(detection);
  return Boolean(needle) && (lower(item.body).includes(needle) || lower(item.author).includes(needle));
}

/** `alsoCounts`: feedback that asks for a fix without naming the detection string (a writer's @mention). */
export function reviewStateOf(fresh: FeedbackItem[], detection: string, alsoCounts: (item: FeedbackItem) => boolean = () => false): ReviewState {
  const matching = fresh.filter((i) => matchesDetection(i, detection) || alsoCounts(i));
  const latest = matching.reduce<string | null>((max, i) => (!max || Date.parse(i.createdAt) > Date.parse(max) ? i.createdAt : max), null);
  return { count: matching.length, latestAt: latest };
}

export function hasNewReview(previous: ReviewState | null | undefined, current: ReviewState): boolean {
  if (current.count === 0 || !current.latestAt) return false;
  if (!previous?.latestAt) return true;
  return Date.parse(current.latestAt) > Date.parse(previous.latestAt);
}

const MAX_PROMPT = 20_000;

export function reviewFixPrompt(pr: { number: number; url: string; headBranch: string }, fresh: FeedbackItem[]): string {
  const reviews = fresh.filter((i) => i.kind === "review" && i.body.trim());
  const inline = fresh.filter((i) => i.kind === "inline");
  const comments = fresh.filter((i) => i.kind === "comment");
  const parts = [
    `Review feedback on pull request #${pr.number} (${pr.url}), branch \`${pr.headBranch}\`.`,
    "Address every point below in this worktree; your changes are committed and pushed to the same pull request.",
  ];
  for (const r of reviews) parts.push(`\n## Review by ${r.author}${r.state ? ` (${r.state.toLowerCase()})` : ""}\n\n${r.body.trim()}`);
  if (inline.length) {
    parts.push("\n## Inline comments");
    for (const c of inline) parts.push(`\n### \`${c.path}\`${c.line ? ` line ${c.line}` : ""} — ${c.author}\n\n${c.body.trim()}`);
  }
  if (comments.length) {
    parts.push("\n## Comments");
    for (const c of comments) parts.push(`\n- ${c.author}: ${c.body.trim()}`);
  }
  const text = parts.join("\n");
  return text.length > MAX_PROMPT ? `${text.slice(0, MAX_PROMPT)}\n\n[feedback truncated]` : text;
}
