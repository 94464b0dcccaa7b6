import { describe, expect, it } from "vitest";
import { writtenByUs } from "@/lib/github/self";

const own = { botLogin: "ringmaster-test[bot]", appId: "42" };

describe("writtenByUs", () => {
  it("knows our comments and reviews by their author, in any case", () => {
    expect(writtenByUs({ comment: { user: { login: "Ringmaster-Test[bot]" } } }, own)).toBe(true);
    expect(writtenByUs({ review: { user: { login: "ringmaster-test[bot]" } } }, own)).toBe(true);
    expect(writtenByUs({ comment: { user: { login: "greptile-apps[bot]" } } }, own)).toBe(false);
  });

  it("knows what our app wrote by its id, and nothing by an absent identity", () => {
    expect(writtenByUs({ comment: { user: { login: "someone" }, performed_via_github_app: { id: 42 } } }, own)).toBe(true);
    expect(writtenByUs({ check_run: { app: { id: 42 } } }, own)).toBe(true);
    expect(writtenByUs({ check_suite: { app: { id: 43 } } }, own)).toBe(false);
    expect(writtenByUs({ check_run: { app: { id: 42 } }, comment: { user: { login: "x" } } }, { botLogin: null, appId: null })).toBe(false);
  });

  it("does not take CI's check for ours because we pushed the commit it checks", () => {
    expect(writtenByUs({ sender: { login: "ringmaster-test[bot]" }, check_run: { app: { id: 15368 } } }, own)).toBe(false);
  });
});
