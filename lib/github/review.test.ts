import { describe, expect, it } from "vitest";
import { freshFeedback, hasNewReview, parsePRUrl, reviewFixPrompt, reviewStateOf, type FeedbackItem } from "@/lib/github/review";

const item = (over: Partial<FeedbackItem>): FeedbackItem => ({ kind: "comment", id: 1, author: "someone", body: "", createdAt: "2026-01-01T00:00:10Z", ...over });

describe("seed 000 review detection", () => {
  it("parses PR URLs and refuses others", () => {
    expect(parsePRUrl("https://github.com/acme/web-app/pull/42")).toEqual({ owner: "acme", repo: "web-app", number: 42 });
    expect(parsePRUrl("https://github.com/acme/web-app/issues/42")).toBeNull();
    expect(parsePRUrl("not a url")).toBeNull();
  });

  it("keeps feedback newer than the last review run, without the bot's own comments", () => {
    const items = [
      item({ id: 1, author: "greptile-apps[bot]", body: "old", createdAt: "2026-01-01T00:00:01Z" }),
      item({ id: 2, author: "ringmaster[bot]", body: "@greptile", createdAt: "2026-01-01T00:00:20Z" }),
      item({ id: 3, kind: "inline", author: "greptile-apps[bot]", body: "null check", path: "a.ts", line: 3, createdAt: "2026-01-01T00:00:30Z" }),
    ];
    const fresh = freshFeedback(items, new Date("2026-01-01T00:00:05Z"), "ringmaster[bot]");
    expect(fresh.map((i) => i.id)).toEqual([3]);
  });

  it("detects a new review by comparing the previous and current state", () => {
    const fresh = [item({ author: "greptile-apps[bot]", body: "LGTM mostly", createdAt: "2026-01-01T00:01:00Z" }), item({ id: 2, body: "unrelated" })];
    const state = reviewStateOf(fresh, "greptile");
    expect(state).toEqual({ count: 1, latestAt: "2026-01-01T00:01:00Z" });
    expect(hasNewReview(null, state)).toBe(true);
    expect(hasNewReview(state, state)).toBe(false);
    expect(hasNewReview(state, { count: 2, latestAt: "2026-01-01T00:02:00Z" })).toBe(true);
    expect(hasNewReview(null, reviewStateOf([item({ body: "human words" })], "greptile"))).toBe(false);
  });

  it("writes inline comments with their file and line into the fix prompt", () => {
    const text = reviewFixPrompt({ number: 7, url: "https://github.com/a/b/pull/7", headBranch: "ringmaster/1-x" }, [
      item({ kind: "review", author: "greptile-apps[bot]", body: "Two issues.", state: "COMMENTED" }),
      item({ kind: "inline", author: "greptile-apps[bot]", body: "Handle null here.", path: "src/a.ts", line: 12 }),
    ]);
    expect(text).toContain("pull request #7");
    expect(text).toContain("## Review by greptile-apps[bot] (commented)");
    expect(text).toContain("`src/a.ts` line 12");
    expect(text).toContain("Handle null here.");
  });
});
