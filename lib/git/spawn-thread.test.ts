import { describe, expect, it } from "vitest";
import { git, gitCheck, GitError } from "@/lib/git/run";
import { commitFiles, makeSandbox } from "@/lib/git/testing";
import { useGitSpawnThread } from "@/lib/git/spawn-thread";

describe("git from the spawner thread", () => {
  it("answers as git started here would: output, exit codes and errors", async () => {
    const { repo } = await makeSandbox();
    useGitSpawnThread();
    const sha = await commitFiles(repo, { "a.txt": "a" }, "add a");
    expect(await git(repo, ["rev-parse", "HEAD"])).toBe(`${sha}\n`);
    expect(await gitCheck(repo, ["rev-parse", "--verify", "--quiet", "refs/heads/nope"])).toBe(false);
    const failed = await git(repo, ["checkout", "no-such-branch"]).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(GitError);
    expect((failed as GitError).exitCode).toBe(1);
    expect((failed as GitError).stderr).toContain("did not match any file(s) known to git");
    const missing = await git(`${repo}/no-such-folder`, ["status"]).catch((e: unknown) => e);
    expect((missing as GitError).exitCode).toBe(null);
  });
});
