import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertNotBaseBranch } from "@/lib/git/branch-name";
import { branchExists, branchSha } from "@/lib/git/refs";
import { git, GitError } from "@/lib/git/run";

/** `content` may be a function: it is read again after a lost swap, so a writer whose data moved meanwhile writes its newest. */
export type FileCommitInput = { repoPath: string; branch: string; baseBranch: string; path: string; content: string | (() => Promise<string>); message: string | (() => string) };

const ZERO = "0".repeat(40);

/**
 * Commits one file to `branch` (created from the base branch the first time) with plumbing only:
 * a private index, write-tree, commit-tree and a compare-and-swap update-ref. No work tree is
 * touched, the base branch never moves, and no hook runs (git() disables them). Returns the new
 * commit, or null when the branch already holds exactly this content. Another writer that moves
 * the branch between our read and our swap makes us start again from its commit (a few times):
 * the caller's content, written last, is what the branch holds.
 */
export async function commitFileToBranch(input: FileCommitInput): Promise<string | null> {
  await assertNotBaseBranch(input.branch, input.baseBranch);
  for (let attempt = 1; ; attempt++) {
    const tried = await tryCommitFile(input);
    if (!tried.moved) return tried.commit;
    if (attempt >= SWAP_ATTEMPTS) throw tried.error;
  }
}

const SWAP_ATTEMPTS = 5;

async function tryCommitFile(input: FileCommitInput): Promise<{ moved: false; commit: string | null } | { moved: true; error: Error }> {
  const { repoPath } = input;
  const exists = await branchExists(repoPath, input.branch);
  const parent = await branchSha(repoPath, exists ? input.branch : input.baseBranch);
  // Content after the parent: a commit that lands on `parent` read its content after every commit
  // below it landed, so the branch's tip always holds the newest content of all that landed.
  const content = typeof input.content === "string" ? input.content : await input.content();
  if (exists && (await readBlob(repoPath, parent, input.path)) === content) return { moved: false, commit: null };
  const dir = await mkdtemp(join(tmpdir(), "ringmaster-file-commit-"));
  try {
    const file = join(dir, "content");
    await writeFile(file, content);
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    const blob = (await git(repoPath, ["hash-object", "-w", "--no-filters", file])).trim();
    await git(repoPath, ["read-tree", parent], { env });
    await git(repoPath, ["update-index", "--add", "--cacheinfo", `100644,${blob},${input.path}`], { env });
    const tree = (await git(repoPath, ["write-tree"], { env })).trim();
    const commit = (await git(repoPath, ["commit-tree", tree, "-p", parent, "-m", typeof input.message === "string" ? input.message : input.message()])).trim();
    try {
      await git(repoPath, ["update-ref", `refs/heads/${input.branch}`, commit, exists ? parent : ZERO]);
    } catch (error) {
      // Lost the swap only if the branch is no longer where we read it; anything else is a real failure.
      const now = (await branchExists(repoPath, input.branch)) ? await branchSha(repoPath, input.branch) : null;
      if (now !== (exists ? parent : null)) return { moved: true, error: error as Error };
      throw error;
    }
    return { moved: false, commit };
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
