import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffPatch, diffSummary } from "@/lib/git/diff";
import { git } from "@/lib/git/run";
import { commitFiles, makeSandbox, writeFiles } from "@/lib/git/testing";
import { createWorktree } from "@/lib/git/worktree-create";

describe("diffSummary", () => {
  it("sums the run's committed and uncommitted changes since its base", async () => {
    const { repo, worktrees } = await makeSandbox();
    await commitFiles(repo, { "old.txt": "1\n2\n3\n", "moved.txt": "a\nb\nc\nd\ne\n" }, "fixtures");
    const { path, baseSha } = await createWorktree({ repoPath: repo, path: join(worktrees, "r"), branch: "ringmaster/1-x", baseBranch: "main" });

    await commitFiles(path, { "new file.txt": "x\ny\n", "bin.dat": "\0\x01\x02" }, "add");
    await git(path, ["mv", "moved.txt", "renamed.txt"]);
    await git(path, ["commit", "--quiet", "-m", "rename"]);
    await writeFiles(path, { "README.md": "hello\nworld\n" });
    await rm(join(path, "old.txt"));

    const summary = await diffSummary(path, baseSha);
    const byPath = Object.fromEntries(summary.changed.map((file) => [file.path, file]));
    expect(byPath).toEqual({
      "README.md": { path: "README.md", insertions: 1, deletions: 0, binary: false },
      "bin.dat": { path: "bin.dat", insertions: 0, deletions: 0, binary: true },
      "renamed.txt": { path: "renamed.txt", previousPath: "moved.txt", insertions: 0, deletions: 0, binary: false },
      "new file.txt": { path: "new file.txt", insertions: 2, deletions: 0, binary: false },
      "old.txt": { path: "old.txt", insertions: 0, deletions: 3, binary: false },
    });
    expect(summary).toMatchObject({ files: 5, insertions: 3, deletions: 3 });
  });

  it("is empty when nothing changed", async () => {
    const { repo, worktrees } = await makeSandbox();
    const { path, baseSha } = await createWorktree({ repoPath: repo, path: join(worktrees, "r"), branch: "ringmaster/1-x", baseBranch: "main" });
    expect(await diffSummary(path, baseSha)).toEqual({ files: 0, insertions: 0, deletions: 0, changed: [] });
  });
});

describe("diffPatch", () => {
  it("gives whole files until the line budget is spent, and says it left some out", async () => {
    const { repo, worktrees } = await makeSandbox();
    const { path, baseSha } = await createWorktree({ repoPath: repo, path: join(worktrees, "r"), branch: "ringmaster/1-x", baseBranch: "main" });
    await commitFiles(path, { "a.txt": "1\n2\n", "b.txt": "x\ny\nz\n", "c d.txt": "q\n" }, "add");
    const head = (await git(path, ["rev-parse", "HEAD"])).trim();
    const { changed } = await diffSummary(path, baseSha, head);

    const all = await diffPatch(path, baseSha, changed, head);
    expect(all.truncated).toBe(false);
    expect(all.patch.match(/^diff --git /gm)).toHaveLength(3);
    expect(all.patch).toContain("+++ b/c d.txt");
    expect(all.patch).toContain("@@ -0,0 +1 @@\n+q\n");

    const someLines = await diffPatch(path, baseSha, changed, head, { lines: 4, bytes: 1_000_000 });
    expect(someLines.truncated).toBe(true);
    expect(someLines.patch).toContain("+++ b/a.txt");
    expect(someLines.patch).not.toContain("b.txt");

    // A byte limit cuts before a file's section, never inside a hunk.
    const firstFile = all.patch.indexOf("\ndiff --git ", 1) + 1;
    const someBytes = await diffPatch(path, baseSha, changed, head, { lines: 1000, bytes: firstFile + 5 });
    expect(someBytes).toEqual({ patch: all.patch.slice(0, firstFile), truncated: true });
  });
});
