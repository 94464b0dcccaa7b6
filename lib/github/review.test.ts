import { describe, expect, it } from "vitest";
import { freshFeedback, hasNewReview, isOwn, matchesDetection, parsePRUrl, reviewFixPrompt, reviewStateOf, type FeedbackItem } from "@/lib/github/review";

const item = (over: Partial<FeedbackItem>): FeedbackItem => ({ kind: "comment", id: 1, author: "someone", body: "", createdAt: "2026-01-01T00:00:10Z", ...over });
const pr = { number: 7, url: "https://github.com/a/b/pull/7", headBranch: "ringmaster/1-x" };
const HEAD = [
  "Review feedback on pull request #7 (https://github.com/a/b/pull/7), branch `ringmaster/1-x`.",
  "Address every point below in this worktree; your changes are committed and pushed to the same pull request.",
].join("\n");

describe("PR URLs", () => {
  it("parses a pull request URL on any host, with or without a trailing slash or surrounding space", () => {
    expect(parsePRUrl("https://github.com/acme/web-app/pull/42")).toEqual({ owner: "acme", repo: "web-app", number: 42 });
    expect(parsePRUrl(" http://ghe.example.com/Acme-2/my.repo_x/pull/007/ \n")).toEqual({ owner: "Acme-2", repo: "my.repo_x", number: 7 });
  });

  it("refuses anything else: sub-pages, leading or trailing text, other paths, odd names", () => {
    for (const url of [
      "https://github.com/acme/web-app/pull/42/files", "see https://github.com/acme/web-app/pull/42", "https://github.com/acme/web-app/pull/42 thanks",
      "https://github.com/acme/web-app/pull/42x", "https://github.com/acme/web-app/pull/", "https://github.com/acme/web-app/issues/42",
      "ftp://github.com/acme/web-app/pull/42", "https://github.com/ac_me/web-app/pull/42", "https://github.com/acme/web app/pull/42",
      "https://github.com//web-app/pull/42", "https:///acme/web-app/pull/42", "https://github.com/acme/web-app/pull/42?tab=files", "not a url",
    ]) {
      expect(parsePRUrl(url), url).toBeNull();
    }
  });
});

describe("fresh feedback (seed 000)", () => {
  it("on a PR's first review (no earlier review run) keeps everything but Ringmaster's own words", () => {
    const items = [item({ id: 1, body: "first", createdAt: "1970-01-01T00:00:00.001Z" }), item({ id: 2, author: "RingMaster[bot]", body: "@greptile review" })];
    expect(freshFeedback(items, null, "ringmaster[bot]").map((i) => i.id)).toEqual([1]);
  });

  it("keeps only feedback newer than the last review run, oldest first, ties by id", () => {
    const items = [
      item({ id: 5, body: "newest", createdAt: "2026-01-01T00:00:30Z" }),
      item({ id: 4, body: "same second, higher id", createdAt: "2026-01-01T00:00:20Z" }),
      item({ id: 3, body: "same second", createdAt: "2026-01-01T00:00:20Z" }),
      item({ id: 2, body: "at the review run", createdAt: "2026-01-01T00:00:05Z" }),
      item({ id: 1, body: "before", createdAt: "2026-01-01T00:00:01Z" }),
    ];
    expect(freshFeedback(items, new Date("2026-01-01T00:00:05Z"), null).map((i) => i.id)).toEqual([3, 4, 5]);
  });

  it("drops blank comments and inline notes but keeps a review without text (an approval)", () => {
    const items = [
      item({ id: 1, body: "  \n " }), item({ id: 2, kind: "inline", body: "\t", path: "a.ts" }),
      item({ id: 3, kind: "review", body: "", state: "APPROVED" }), item({ id: 4, body: " ok " }),
    ];
    expect(freshFeedback(items, null, "ringmaster[bot]").map((i) => i.id)).toEqual([3, 4]);
  });

  it("tells Ringmaster's own words case-insensitively, and nobody's when it has no bot login", () => {
    expect(isOwn("Ringmaster[BOT]", "ringmaster[bot]")).toBe(true);
    expect(isOwn("ringmaster", "ringmaster[bot]")).toBe(false);
    expect(isOwn("", null)).toBe(false);
    expect(isOwn("", "")).toBe(false);
  });
});

describe("review state", () => {
  it("matches the detection string in the text or the author, case-insensitively; never an empty one", () => {
    expect(matchesDetection(item({ body: "Summary by GREPTILE" }), "greptile")).toBe(true);
    expect(matchesDetection(item({ author: "Greptile-apps[bot]" }), "greptile")).toBe(true);
    expect(matchesDetection(item({ body: "human words" }), "greptile")).toBe(false);
    expect(matchesDetection(item({ body: "anything" }), "")).toBe(false);
    // Lower case, not upper: "ß" upper-cases to "SS", so an upper-case match would find "straße" in "strasse".
    expect(matchesDetection(item({ body: "the strasse bot" }), "Straße")).toBe(false);
    expect(matchesDetection(item({ body: "the STRASSE bot" }), "strasse")).toBe(true);
  });

  it("counts matching feedback and finds the newest even when items arrive out of order", () => {
    const fresh = [
      item({ id: 1, author: "greptile-apps[bot]", createdAt: "2026-01-01T00:03:00Z" }),
      item({ id: 2, author: "greptile-apps[bot]", createdAt: "2026-01-01T00:01:00Z" }),
      item({ id: 3, author: "human", body: "newer but not a review", createdAt: "2026-01-01T00:09:00Z" }),
      item({ id: 4, author: "greptile-apps[bot]", createdAt: "2026-01-01T00:02:00Z" }),
    ];
    expect(reviewStateOf(fresh, "greptile")).toEqual({ count: 3, latestAt: "2026-01-01T00:03:00Z" });
    expect(reviewStateOf([], "greptile")).toEqual({ count: 0, latestAt: null });
    expect(reviewStateOf([fresh[1], fresh[0], fresh[3]], "greptile")).toEqual({ count: 3, latestAt: "2026-01-01T00:03:00Z" });
  });

  it("sees a new review only when the current state has a newer one than the previous", () => {
    const state = { count: 1, latestAt: "2026-01-01T00:01:00Z" };
    expect(hasNewReview(null, state)).toBe(true);
    expect(hasNewReview(undefined, state)).toBe(true);
    expect(hasNewReview({ count: 0, latestAt: null }, state)).toBe(true);
    expect(hasNewReview(state, state)).toBe(false);
    expect(hasNewReview(state, { count: 2, latestAt: "2026-01-01T00:02:00Z" })).toBe(true);
    expect(hasNewReview(state, { count: 2, latestAt: "2026-01-01T00:00:30Z" })).toBe(false);
    expect(hasNewReview(null, { count: 0, latestAt: "2026-01-01T00:01:00Z" })).toBe(false);
    expect(hasNewReview(null, { count: 1, latestAt: null })).toBe(false);
  });
});

describe("the fix prompt", () => {
  it("writes reviews, inline comments with file and line, and comments, each trimmed and under its heading", () => {
    const text = reviewFixPrompt(pr, [
      item({ kind: "review", author: "greptile-apps[bot]", body: " Two issues. \n", state: "CHANGES_REQUESTED" }),
      item({ kind: "review", author: "approver", body: " \n", state: "APPROVED" }),
      item({ kind: "review", author: "stateless", body: "Plain." }),
      item({ kind: "inline", author: "greptile-apps[bot]", body: " Handle null here. ", path: "src/a.ts", line: 12 }),
      item({ kind: "inline", author: "carol", body: "Whole file.", path: "src/b.ts", line: null }),
      item({ kind: "comment", author: "dave", body: "  Also the docs. " }),
    ]);
    expect(text).toBe([
      HEAD,
      "\n## Review by greptile-apps[bot] (changes_requested)\n\nTwo issues.",
      "\n## Review by stateless\n\nPlain.",
      "\n## Inline comments",
      "\n### `src/a.ts` line 12 — greptile-apps[bot]\n\nHandle null here.",
      "\n### `src/b.ts` — carol\n\nWhole file.",
      "\n## Comments",
      "\n- dave: Also the docs.",
    ].join("\n"));
  });

  it("leaves out the headings of empty sections", () => {
    expect(reviewFixPrompt(pr, [])).toBe(HEAD);
    expect(reviewFixPrompt(pr, [item({ kind: "comment", author: "dave", body: "x" })])).toBe(`${HEAD}\n\n## Comments\n\n- dave: x`);
  });

  it("truncates past 20,000 characters with a marker, and not at exactly 20,000", () => {
    const fill = (n: number) => reviewFixPrompt(pr, [item({ kind: "comment", author: "d", body: "y".repeat(n) })]);
    const overhead = fill(1).length - 1;
    expect(fill(20_000 - overhead)).toHaveLength(20_000);
    expect(fill(20_000 - overhead)).not.toContain("[feedback truncated]");
    const long = fill(20_001 - overhead);
    expect(long).toBe(`${fill(20_001 - overhead).slice(0, 20_000)}\n\n[feedback truncated]`);
    expect(long).toHaveLength(20_000 + "\n\n[feedback truncated]".length);
  });
});
