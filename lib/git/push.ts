import { rename, rm, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { assertNotBaseBranch } from "@/lib/git/branch-name";
import { branchSha } from "@/lib/git/refs";
import { git, GitError, type GitOptions } from "@/lib/git/run";

export type RemoteAuth = {
  url: string;
  /** Sent as an HTTP header through the environment, never on the command line or in a config file. */
  token?: string;
};

/** The environment that gives git the token as an HTTP header (never argv, never a config file). */
export function authEnv(auth: RemoteAuth): GitOptions {
  if (!auth.token) return {};
  const basic = Buffer.from(`x-access-token:${auth.token}`).toString("base64");
  return { env: { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "http.extraHeader", GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}` } };
}

// Git's messages may echo the URL; a token never sits in it, but a user-supplied URL might.
function scrub(error: unknown, auth: RemoteAuth): never {
  if (error instanceof GitError && auth.token) {
    throw new GitError(error.cwd, error.args.map((a) => a.replaceAll(auth.token!, "***")), error.exitCode, error.stderr.replaceAll(auth.token, "***"));
  }
  throw error;
}

/** A bare clone of a remote repository at path (worktrees hang off it); an existing clone is kept. */
export async function ensureBareClone(path: string, auth: RemoteAuth): Promise<void> {
  try {
    await git(path, ["rev-parse", "--git-dir"]);
    return;
  } catch {
    // not there yet
  }
  await mkdir(dirname(path), { recursive: true });
  // Cloned aside, then renamed: a racing clone or a crash never leaves a half clone in place.
  const temp = `${path}.tmp-${process.pid}-${Date.now()}`;
  try {
    await git(dirname(path), ["clone", "--bare", "--quiet", "--", auth.url, temp], authEnv(auth));
    await rename(temp, path).catch(async (err) => {
      if ((err as NodeJS.ErrnoException).code !== "ENOTEMPTY" && (err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    });
  } catch (error) {
    scrub(error, auth);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** Brings the local copy of one remote branch up to date (forced: the remote is the truth for it). */
export async function fetchBranch(repoPath: string, branch: string, auth: RemoteAuth): Promise<string> {
  try {
    await git(repoPath, ["fetch", "--quiet", "--no-tags", "--", auth.url, `+refs/heads/${branch}:refs/heads/${branch}`], authEnv(auth));
  } catch (error) {
    scrub(error, auth);
  }
  return branchSha(repoPath, branch);
}

/**
 * Pushes a run's branch to the remote branch of the same name, fast-forward only (someone
 * else's commits on it make the push fail rather than vanish). Invariant 5: never the base branch.
 */
export async function pushBranch(input: { repoPath: string; branch: string; baseBranch: string; auth: RemoteAuth }): Promise<string> {
  const { repoPath, branch, baseBranch, auth } = input;
  await assertNotBaseBranch(branch, baseBranch);
  const sha = await branchSha(repoPath, branch);
  try {
    await git(repoPath, ["push", "--quiet", "--no-verify", "--", auth.url, `refs/heads/${branch}:refs/heads/${branch}`], authEnv(auth));
  } catch (error) {
    scrub(error, auth);
  }
  return sha;
}
