import { readdir } from "node:fs/promises";
import { resolve } from "node:path";
import { z } from "zod";
import { DomainError } from "@/lib/errors";
import { git, GitError } from "@/lib/git";
import { requireRepoPath } from "@/lib/projects/repo-path";

/** The tip of a project's base branch, as the set-up form's "Test" button shows it. */
export type BranchHead = { branch: string; sha: string; subject: string };

const invalid = (field: "repoPath" | "baseBranch", message: string, input: string) =>
  new z.ZodError([{ code: "custom", path: [field], message, input }]);

/** An empty folder where a repository was expected: the form offers to create one there. */
export class EmptyFolderError extends DomainError {
  constructor() {
    super(400, "empty_folder", "repoPath is an empty folder: create a new repository there, or name an existing one", "repoPath");
  }
}

// git looks upwards for a repository: a plain folder inside someone's checkout would pass for
// one, so the folder must be the repository itself (its top level, or a bare repository).
async function repositoryRoot(path: string): Promise<string | null> {
  try {
    const [bare, top] = (await git(path, ["rev-parse", "--is-bare-repository", "--show-toplevel"]).catch(async (err) => {
      // --show-toplevel fails in a bare repository; ask again without it.
      if (err instanceof GitError && /bare|work tree/i.test(err.stderr)) return git(path, ["rev-parse", "--is-bare-repository"]);
      throw err;
    })).trim().split("\n");
    if (bare === "true") return resolve(path, (await git(path, ["rev-parse", "--git-dir"])).trim());
    return top ?? null;
  } catch (err) {
    if (err instanceof GitError) return null;
    throw err;
  }
}

/**
 * Throws a field error unless `path` (canonical, under the operator's roots) is a git
 * repository; an empty folder is an EmptyFolderError so the caller can offer to create one.
 */
export async function requireGitRepository(path: string): Promise<void> {
  const root = await repositoryRoot(path);
  if (root === path) return;
  if ((await readdir(path).catch(() => null))?.length === 0) throw new EmptyFolderError();
  if (root) throw invalid("repoPath", `is a folder inside the repository ${root}: name the repository itself`, path);
  throw invalid("repoPath", "is not a git repository (no .git found there)", path);
}

/** The head of `branch` in the repository at `path`, or a field error naming the branches there. */
export async function requireBranchHead(path: string, branch: string): Promise<BranchHead> {
  const out = await git(path, ["for-each-ref", "--format=%(objectname)%00%(subject)", `refs/heads/${branch}`]);
  const line = out.split("\n").find(Boolean);
  if (line) {
    const [sha, subject] = line.split("\0");
    return { branch, sha, subject };
  }
  const names = (await git(path, ["for-each-ref", "--count=10", "--format=%(refname:short)", "refs/heads"])).split("\n").filter(Boolean);
  const known = names.length ? `; branches there: ${names.join(", ")}` : "; the repository has no commits yet";
  throw invalid("baseBranch", `does not exist in this repository${known}`, branch);
}

/** Makes a new repository in an empty folder, with a first (empty) commit on the base branch. */
export async function initRepository(path: string, branch: string): Promise<BranchHead> {
  if ((await readdir(path)).length !== 0) throw invalid("repoPath", "is not empty: a new repository is only created in an empty folder", path);
  await git(path, ["init", "--quiet", `--initial-branch=${branch}`]);
  await git(path, ["commit", "--quiet", "--allow-empty", "--no-verify", "--message", "Initial commit"]);
  return requireBranchHead(path, branch);
}

/**
 * Everything a local project's repository must be, checked at create, at every change and by
 * the form's "Test" button: under the operator's roots and this team's only (requireRepoPath),
 * a git repository (or, with `init`, an empty folder that becomes one), holding the base branch.
 */
export async function checkLocalRepository(teamId: string, rawPath: string, branch: string, opts: { init?: boolean } = {}) {
  const repoPath = await requireRepoPath(teamId, rawPath);
  if (opts.init) return { repoPath, head: await initRepository(repoPath, branch), created: true };
  await requireGitRepository(repoPath);
  return { repoPath, head: await requireBranchHead(repoPath, branch), created: false };
}
