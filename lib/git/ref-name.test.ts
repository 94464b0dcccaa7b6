import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { isValidBranchName } from "@/lib/git/ref-name";

const gitAccepts = (name: string) => {
  try {
    execFileSync("git", ["check-ref-format", "--branch", name], { cwd: tmpdir(), stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

const names = [
  "main", "feature/x", "release-1.2", "a/b/c", "user@host", "ringmaster/12-fix", "Ünïcode",
  "../etc", "a/../b", "..", "a..b", ".hidden", "a/.b", "a.", "a/", "/a", "a//b", "a.lock", "a/b.lock/c",
  "a b", "a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "a\u0007", "a\u007f", "a@{1}", "-x", "",
];

describe("isValidBranchName agrees with git check-ref-format --branch", () => {
  it.each(names)("%j", (name) => {
    // git resolves "@{-N}" and friends against a repository; outside one, its answer is ours.
    expect(isValidBranchName(name)).toBe(gitAccepts(name));
  });

  it("refuses HEAD, @ (HEAD's shorthand) and climbing names", () => {
    expect(isValidBranchName("@")).toBe(false);
    expect(isValidBranchName("HEAD")).toBe(false);
    expect(isValidBranchName("../../outside")).toBe(false);
  });
});
