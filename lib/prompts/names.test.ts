import { describe, expect, it } from "vitest";
import { planningKeyForBranch, promptFileName } from "@/lib/prompts/names";

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
