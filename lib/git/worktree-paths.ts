import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { git } from "@/lib/git/run";

export type WorktreeGitPaths = {
  /** The repository's common git folder (objects, refs, config). */
  commonDir: string;
  /** The worktree's own git folder (its HEAD, index, logs). */
  worktreeDir: string;
  /** The branch checked out, as `refs/heads/…`; null on a detached HEAD. */
  branchRef: string | null;
};

/**
 * What `git rev-parse --path-format=absolute --git-common-dir --git-dir --symbolic-full-name HEAD`
 * answers, read from the files git itself reads (gitrepository-layout: a linked worktree's `.git`
 * file names its folder, whose `commondir` names the common one): no process on a run's start.
 * Anything else (a `.git` folder, a file of another form) asks git.
 */
export async function worktreeGitPaths(worktree: string): Promise<WorktreeGitPaths> {
  const dotGit = join(worktree, ".git");
  if ((await stat(dotGit)).isFile()) {
    const gitdir = /^gitdir: (.+)$/m.exec(await readFile(dotGit, "utf8"))?.[1]?.trim();
    const admin = gitdir ? resolve(worktree, gitdir) : null;
    const common = admin ? (await readFile(join(admin, "commondir"), "utf8").catch(() => "")).trim() : "";
    const head = admin ? (await readFile(join(admin, "HEAD"), "utf8").catch(() => "")).trim() : "";
    if (admin && common && head) {
      const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1] ?? null;
      return { commonDir: resolve(admin, common), worktreeDir: admin, branchRef: ref };
    }
  }
  const [commonDir, worktreeDir, branchRef] = (await git(worktree, ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir", "--symbolic-full-name", "HEAD"])).trim().split("\n");
  return { commonDir, worktreeDir, branchRef: branchRef?.startsWith("refs/") ? branchRef : null };
}
