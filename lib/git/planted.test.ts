import { chmod, mkdir, mkdtemp, readdir, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitFiles, makeSandbox } from "@/lib/git/testing";
import { git, GitError } from "@/lib/git/run";
import { commitAll } from "@/lib/git/commit";
import { createWorktree } from "@/lib/git/worktree-create";
import { mergeIntoBase } from "@/lib/git/merge";
import { rebaseOntoBase } from "@/lib/git/rebase";
import { ensureBareClone, pushBranch } from "@/lib/git/push";

// An agent shares the repository's .git with Ringmaster: whatever it plants there must never run
// in Ringmaster's own git commands (outside the agent's sandbox), nor redirect them.
const HOOKS = ["post-checkout", "pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-merge", "pre-rebase", "post-rewrite", "pre-push", "reference-transaction", "pre-auto-gc"];

async function plant(gitDir: string, markers: string, opts: { hooksPath: boolean }) {
  const script = (name: string) => `#!/bin/sh\ntouch '${join(markers, name)}'\ncat\n`;
  const hooksDir = opts.hooksPath ? join(markers, "..", "planted-hooks") : join(gitDir, "hooks");
  await mkdir(hooksDir, { recursive: true });
  for (const hook of HOOKS) {
    await writeFile(join(hooksDir, hook), script(hook));
    await chmod(join(hooksDir, hook), 0o755);
  }
  const fsmonitor = join(markers, "..", "fsmonitor");
  await writeFile(fsmonitor, `#!/bin/sh\ntouch '${join(markers, "fsmonitor")}'\n`);
  await chmod(fsmonitor, 0o755);
  const filter = join(markers, "..", "filter");
  await writeFile(filter, script("filter"));
  await chmod(filter, 0o755);
  const config = [
    ...(opts.hooksPath ? [["core.hooksPath", hooksDir]] : []),
    ["core.fsmonitor", fsmonitor],
    ["filter.evil.clean", filter],
    ["filter.evil.smudge", filter],
    ["filter.evil.required", "true"],
  ];
  for (const [key, value] of config) await git(gitDir, ["config", "--file", join(gitDir, "config"), key, value]);
}

describe("hooks and config an agent plants in the shared .git", () => {
  it.each([["in .git/hooks", false], ["through core.hooksPath", true]])(
    "never run (hooks %s, core.fsmonitor, filters) when Ringmaster adds a worktree, commits, rebases and merges",
    async (_where, hooksPath) => {
      const { repo, worktrees } = await makeSandbox();
      await commitFiles(repo, { ".gitattributes": "*.txt filter=evil\n", "base.txt": "base\n" }, "attributes");
      const markers = join(await realpath(await mkdtemp(join(tmpdir(), "rm-planted-"))), "markers");
      await mkdir(markers);
      await plant(join(repo, ".git"), markers, { hooksPath });

      const wt = await createWorktree({ repoPath: repo, path: join(worktrees, "run"), branch: "ringmaster/1-a", baseBranch: "main" });
      await writeFile(join(wt.path, "a.txt"), "a\n");
      expect(await commitAll(wt.path, "feat: a", "main")).toMatch(/^[0-9a-f]{40}$/);
      // The base moves on (the user commits, without Ringmaster's protections) so the run rebases.
      await git(repo, ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "filter.evil.clean=cat", "-c", "filter.evil.smudge=cat", "commit", "--quiet", "--allow-empty", "-m", "user"]);
      expect(await rebaseOntoBase(wt.path, "main")).toMatchObject({ ok: true });
      expect(await mergeIntoBase({ repoPath: repo, branch: "ringmaster/1-a", baseBranch: "main" })).toMatchObject({ ok: true });
      expect((await git(repo, ["show", "HEAD:a.txt"]))).toBe("a\n");

      expect(await readdir(markers)).toEqual([]);
    },
  );

  it("a url.*.insteadOf or a remote.<url>.pushurl in the repository's config does not redirect a push", async () => {
    const { repo, worktrees } = await makeSandbox();
    const root = await realpath(await mkdtemp(join(tmpdir(), "rm-planted-push-")));
    const remote = join(root, "remote.git");
    const evil = join(root, "evil.git");
    await git(root, ["clone", "--bare", "--quiet", repo, remote]);
    await git(root, ["init", "--bare", "--quiet", evil]);
    const clone = join(root, "clone.git");
    await ensureBareClone(clone, { url: `file://${remote}` });
    const wt = await createWorktree({ repoPath: clone, path: join(worktrees, "run"), branch: "ringmaster/1-a", baseBranch: "main" });
    await commitFiles(wt.path, { "a.txt": "a\n" }, "feat: a");

    for (const [key, value] of [[`url.file://${evil}.insteadOf`, `file://${remote}`], [`url.file://${evil}.pushInsteadOf`, "file://"], [`remote.file://${remote}.pushurl`, `file://${evil}`]]) {
      await git(clone, ["config", key, value]);
      const pushed = await pushBranch({ repoPath: clone, branch: "ringmaster/1-a", baseBranch: "main", auth: { url: `file://${remote}` } }).catch((e: unknown) => e);
      expect(pushed, key).toBeInstanceOf(GitError);
      expect((pushed as GitError).stderr.toLowerCase(), key).toContain(`config sets ${key.toLowerCase()}=`);
      expect(await git(evil, ["for-each-ref"]), key).toBe("");
      await git(clone, ["config", "--unset", key]);
    }
    await pushBranch({ repoPath: clone, branch: "ringmaster/1-a", baseBranch: "main", auth: { url: `file://${remote}` } });
    expect((await git(remote, ["rev-parse", "refs/heads/ringmaster/1-a"])).trim()).toBe((await git(clone, ["rev-parse", "refs/heads/ringmaster/1-a"])).trim());
  });
});
