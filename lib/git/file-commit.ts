import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertNotBaseBranch } from "@/lib/git/branch-name";
import { branchExists, branchSha } from "@/lib/git/refs";
import { git, GitError } from "@/lib/git/run";

export type FileCommitInput = { repoPath: string; branch: string; baseBranch: string; path: string; content: string; message: string };

const ZERO = "0".repeat(40);

/**
 * Commits one file to `branch` (created from the base branch the first time) with plumbing only:
 * a private index, write-tree, commit-tree and a compare-and-swap update-ref. No work tree is
 * touched, the base branch never moves, and no hook runs (git() disables them). Returns the new
 * commit, or null when the branch already holds exactly this content.
 */
export async function commitFileToBranch(input: FileCommitInput): Promise<string | null> {
  await assertNotBaseBranch(input.branch, input.baseBranch);
  const { repoPath } = input;
  const exists = await branchExists(repoPath, input.branch);
  const parent = await branchSha(repoPath, exists ? input.branch : input.baseBranch);
  if (exists && (await readBlob(repoPath, parent, input.path)) === input.content) return null;
  const dir = await mkdtemp(join(tmpdir(), "ringmaster-file-commit-"));
  try {
    const file = join(dir, "content");
    await writeFile(file, input.content);
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    const blob = (await git(repoPath, ["hash-object", "-w", "--no-filters", file])).trim();
    await git(repoPath, ["read-tree", parent], { env });
    await git(repoPath, ["update-index", "--add", "--cacheinfo", `100644,${blob},${input.path}`], { env });
    const tree = (await git(repoPath, ["write-tree"], { env })).trim();
    const commit = (await git(repoPath, ["commit-tree", tree, "-p", parent, "-m", input.message])).trim();
    // Another writer that moved the branch meanwhile wins; the caller's next pass writes again.
    await git(repoPath, ["update-ref", `refs/heads/${input.branch}`, commit, exists ? parent : ZERO]);
    return commit;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The file's content at a commit, or null when the commit has no such file. */
export async function readBlob(repoPath: string, commit: string, path: string): Promise<string | null> {
  try {
    return await git(repoPath, ["cat-file", "blob", `${commit}:${path}`]);
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 128) return null;
    throw error;
  }
}
