import { describe, expect, it } from "vitest";
import { planningKeyForBranch, promptFileName, slugify } from "@/lib/prompts/names";

describe("slugify", () => {
  it.each([
    ["Add login page", "add-login-page"],
    ["  Fix: the **bug** (again)!  ", "fix-the-bug-again"],
    ["Café résumé naïve", "cafe-resume-naive"],
    ["snake_case and CamelCase", "snake-case-and-camelcase"],
    ["v2.0 release", "v2-0-release"],
    ["日本語", ""],
    ["", ""],
  ])("%j → %j", (text, expected) => {
    expect(slugify(text)).toBe(expected);
  });

  it("cuts at 50 characters without leaving a trailing dash", () => {
    const slug = slugify(`${"a".repeat(49)} bbbb`);
    expect(slug).toBe("a".repeat(49));
    expect(slugify("x".repeat(80))).toBe("x".repeat(50));
  });
});

describe("promptFileName", () => {
  it.each([
    [3, "Add login page", "03-add-login-page.md"],
    [12, "Fix bug", "12-fix-bug.md"],
    [123, "Big project", "123-big-project.md"],
    [7, "!!!", "07-untitled.md"],
  ])("%i, %j → %s", (number, title, expected) => {
    expect(promptFileName(number, title)).toBe(expected);
  });
});

describe("planningKeyForBranch", () => {
  it.each([
    ["main", "main"],
    ["feature/test-branch", "feature-test-branch"],
    ["feat//double", "feat-double"],
    ["release/1.2.x", "release-1.2.x"],
    ["user/ünïcode branch", "user-n-code-branch"],
    ["/leading/and/trailing/", "leading-and-trailing"],
    ["a--b", "a-b"],
    ["Keep_Case.ok", "Keep_Case.ok"],
    ["..", "unnamed-branch"],
    ["../../etc", "etc"],
    ["///", "unnamed-branch"],
    ["", "unnamed-branch"],
  ])("%j → %j", (branch, expected) => {
    expect(planningKeyForBranch(branch)).toBe(expected);
  });
});
