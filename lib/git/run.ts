import { inheritedProcessEnv } from "@/lib/env";
import { DomainError, INTERNAL } from "@/lib/errors";
import { parseConfigList, PlantedConfigError, plantedConfigOverrides } from "@/lib/git/planted-config";
import { runCommand } from "@/lib/spawner";

export const COMMITTER = { name: "Ringmaster", email: "ringmaster@localhost" } as const;

export type GitOptions = {
  /** Extra environment for this call (e.g. GIT_SSH_COMMAND); nothing else leaks in from the parent. */
  env?: Record<string, string>;
  /** Retries after a transient error: another git process holds index.lock, config.lock or a ref lock. */
  transientRetries?: number;
  /** Work off every run's path (a worktree pool's refill): a worker starts it niced (lib/spawner.ts). */
  background?: boolean;
};

export class GitError extends DomainError {
  constructor(
    readonly cwd: string,
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(500, INTERNAL, `git ${args.join(" ")} failed in ${cwd} (exit ${exitCode ?? "none"}): ${stderr || "no output"}`);
  }
}

// The environment is built from scratch so that neither the user's git config (gpg signing,
// hooks paths, aliases) nor a stray GIT_DIR from the parent can change what these commands do.
function gitEnv(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: COMMITTER.name,
    GIT_AUTHOR_EMAIL: COMMITTER.email,
    GIT_COMMITTER_NAME: COMMITTER.name,
    GIT_COMMITTER_EMAIL: COMMITTER.email,
    // These win over core.editor / core.pager / sequence.editor in the repository's config.
    GIT_EDITOR: ":",
    GIT_SEQUENCE_EDITOR: ":",
    GIT_PAGER: "cat",
    // Stderr is matched against English messages (lock errors, conflicts).
    LC_ALL: "C",
    // Not configuration: git needs the PATH to find its helpers and the HOME for ssh.
    ...inheritedProcessEnv(["PATH", "HOME"]),
    ...extra,
  };
  return env;
}

// Command-line config beats the repository's: no hook (an agent may have written one into the
// shared .git, or pointed core.hooksPath at one) and no fsmonitor program ever runs, no stored
// credential helper is asked, and no ext:: URL runs a command.
const BASE_CONFIG = [
  "-c", `user.name=${COMMITTER.name}`,
  "-c", `user.email=${COMMITTER.email}`,
  "-c", "commit.gpgSign=false",
  "-c", "core.quotePath=false",
  "-c", "core.hooksPath=/dev/null",
  "-c", "core.fsmonitor=false",
  "-c", "credential.helper=",
  "-c", "protocol.ext.allow=never",
];

// What our git writes in a repository's git folder (a new object folder, a ref's folder, a reflog)
// is made writable for the folder's group, as git does for a repository shared with a group: where
// agents run as a sandbox user, that group is theirs (lib/sandbox/ownership.ts), and a run's start
// then finds nothing left to share. Not for a repository being made (init, clone), whose own
// config would keep the setting for every other git.
const SHARED_WRITES = ["-c", "core.sharedRepository=group"];
const withConfig = (args: readonly string[]) => [...BASE_CONFIG, ...(args[0] === "init" || args[0] === "clone" ? [] : SHARED_WRITES), ...args];

// These read refs and objects only: no hook, filter, driver or remote is involved.
const PLUMBING = new Set(["rev-parse", "update-ref", "symbolic-ref", "merge-base", "rev-list", "config", "show-ref", "for-each-ref", "cat-file", "init", "commit-tree"]);
// Diff drivers (textconv, external diff) are programs named by config.
const DIFFING = new Set(["diff", "show", "log"]);

async function guardedArgs(cwd: string, args: readonly string[], opts: GitOptions): Promise<string[]> {
  if (PLUMBING.has(args[0])) return [...args];
  const listed = await runOnce(cwd, ["config", "--list", "--show-scope", "-z"], opts).catch(() => "");
  let overrides: string[];
  try {
    overrides = plantedConfigOverrides(parseConfigList(listed), args);
  } catch (error) {
    if (error instanceof PlantedConfigError) throw new GitError(cwd, args, null, error.message);
    throw error;
  }
  const [command, ...rest] = args;
  return [...overrides, command, ...(DIFFING.has(command) ? ["--no-ext-diff", "--no-textconv"] : []), ...rest];
}

async function runOnce(cwd: string, args: readonly string[], opts: GitOptions): Promise<string> {
  const exit = await runCommand("git", withConfig(args), { cwd, env: gitEnv(opts.env), background: opts.background }).catch((error: Error) => {
    throw new GitError(cwd, args, null, error.message);
  });
  if (exit.code === 0) return exit.stdout;
  throw new GitError(cwd, args, exit.code, exit.stderr.trim());
}

// Another git process holds a lock, or is halfway through adding a worktree (its admin files
// under .git/worktrees are written one by one, and readers die on a missing one). A failed
// compare-and-swap ("cannot lock ref ...: is at X but expected Y") is not transient.
// A new worktree's HEAD holds a zero id for a moment: a fetch or push into the repository then
// dies on "bad object worktrees/<name>/HEAD" (its connectivity check reads every worktree's HEAD).
const TRANSIENT = /\.lock'?: File exists|could not lock|failed to read .*worktrees\/[^/]+\/(commondir|gitdir)|bad object (refs\/)?worktrees\/[^/\s]+\/HEAD/i;

function isTransient(error: unknown): boolean {
  return error instanceof GitError && TRANSIENT.test(error.stderr);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs git and resolves with its stdout; rejects with a GitError on a non-zero exit. */
export async function git(cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<string> {
  const retries = opts.transientRetries ?? 6;
  for (let attempt = 0; ; attempt++) {
    try {
      return await runOnce(cwd, await guardedArgs(cwd, args, opts), opts);
    } catch (error) {
      if (attempt >= retries || !isTransient(error)) throw error;
      await sleep(20 * 2 ** attempt + Math.random() * 20);
    }
  }
}

/** For git commands that answer yes/no with exit codes 0/1; any other failure throws. */
export async function gitCheck(cwd: string, args: readonly string[], opts?: GitOptions): Promise<boolean> {
  try {
    await git(cwd, args, opts);
    return true;
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return false;
    throw error;
  }
}
