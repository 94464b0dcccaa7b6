import { describe, expect, it } from "vitest";
import { deliverySubject } from "@/lib/github/delivery-store";

describe("a delivery's subject, taken at intake", () => {
  it("is the pull request's or issue's number, else the commit of a check or status, else the event", () => {
    expect(deliverySubject("pull_request_review", { pull_request: { number: 12 }, issue: { number: 3 } })).toBe("#12");
    expect(deliverySubject("issue_comment", { issue: { number: 3 } })).toBe("#3");
    expect(deliverySubject("pull_request", { pull_request: { number: null }, issue: { number: 3 } })).toBe("#3");
    expect(deliverySubject("check_run", { check_run: { head_sha: "abc" }, check_suite: { head_sha: "def" } })).toBe("@abc");
    expect(deliverySubject("check_suite", { check_suite: { head_sha: "def" }, sha: "0f0" })).toBe("@def");
    expect(deliverySubject("status", { sha: "0f0" })).toBe("@0f0");
    expect(deliverySubject("push", {})).toBe("push");
    // Postgres's ->> wrote a value that is not text as its JSON: rows stored before keep their subjects.
    expect(deliverySubject("issues", { issue: { number: { n: 1 } } })).toBe('#{"n":1}');
  });
});
