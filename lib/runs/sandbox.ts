import { randomUUID } from "node:crypto";
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { getDb, type Prisma } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { git, type WorktreeGit } from "@/lib/git";
import { DEMO_AGENT_PATH } from "@/lib/agents/demo";
import { networkPolicy } from "@/lib/sandbox/policy";
import { openSandboxShell, type SandboxSession } from "@/lib/sandbox/session";
import { getSandboxStatus } from "@/lib/sandbox/status";
import { sandboxShareTag, shareFolder, sharedAlready, shareWithSandboxGroup } from "@/lib/sandbox/ownership";
import { writableGitParts, type SandboxUser } from "@/lib/sandbox/bwrap";
import type { EgressCounts } from "@/lib/sandbox/egress-proxy";
import { runMcpServe } from "@/lib/runs/mcp";

type SandboxSettings = { networkMode: string; egressPresets: string[]; egressRules: string[]; unsandboxed: boolean };

// Unsandboxed, the agent has no gateway; it reaches the web server itself, if at all.
const UNSANDBOXED: SandboxSession = {
  launch: (spec) => spec,
  diesWithParent: false,
  mcpUrl: null,
  writeHomeFile: async () => { throw new Error("an unsandboxed run has no private HOME"); },
  close: async () => ({ allowed: {}, blocked: {} }),
};

type RunSandboxInput = { settings: SandboxSettings; adapter: string; token?: string; log: (line: string) => void };

/** The worktree a run's sandbox enters, the project's repository it must belong to, and its pool preparation. */
export type RunWorktree = {
  worktree: string;
  repoPath: string;
  preparedAs?: string;
  /** A take of the pool's (CreatedWorktree's git): ours, no agent's yet, so its git paths are not asked of git again. */
  git?: WorktreeGit;
  /** The repository's shared parts walked beside the checkout (shareRunRepository). */
  repositoryShared?: Promise<boolean>;
};

/** A run's sandbox before its worktree (SandboxShell): `enter` takes the worktree. */
export type RunSandboxShell = {
  enter: (at: RunWorktree) => Promise<SandboxSession>;
  close: () => Promise<EgressCounts>;
};

/**
 * The sandbox a run's agent and verify command start in. Fails closed: where the sandbox
 * cannot be made, the run is refused, unless an admin opted the project into unsandboxed runs
 * and the operator allows such opt-ins.
 */
export async function openRunSandbox(input: RunSandboxInput & RunWorktree): Promise<SandboxSession> {
  const shell = await prepareRunSandbox(input);
  try {
    return await shell.enter(input);
  } catch (err) {
    await shell.close();
    throw err;
  }
}

/**
 * The part of a run's sandbox that needs no worktree (its HOME, egress proxy and MCP gateway),
 * made while the worktree is checked out; refused as openRunSandbox is.
 */
export async function prepareRunSandbox(input: RunSandboxInput): Promise<RunSandboxShell> {
  const status = await getSandboxStatus();
  if (!status.ok) {
    if (!input.settings.unsandboxed) {
      throw new Error(`refused: agents run only inside the sandbox, and ${status.reason}; an admin can opt this project into unsandboxed runs`);
    }
    if (getEnv().SANDBOX_UNSANDBOXED_OPT_IN !== "on") {
      throw new Error(`refused: agents run only inside the sandbox, and ${status.reason}; this project opted into unsandboxed runs, but the operator has not allowed that (SANDBOX_UNSANDBOXED_OPT_IN=on)`);
    }
    input.log(`[ringmaster] WARNING: running UNSANDBOXED, as this project's admin chose (${status.reason})`);
    return { enter: async () => UNSANDBOXED, close: UNSANDBOXED.close };
  }
  const { user } = status.host;
  const shell = await openSandboxShell(status.host, {
    policy: networkPolicy(input.settings, input.adapter),
    readOnly: [DEMO_AGENT_PATH],
    // The verify of a merge has no token, so no gateway: it needs none.
    ...(input.token ? { mcp: { token: input.token, serve: runMcpServe() } } : {}),
  });
  return {
    enter: async ({ worktree, repoPath, preparedAs, git: taken, repositoryShared }) => {
      // What the worktree's git paths name is shared with the sandbox's group by root and bound writable.
      const { commonDir, worktreeDir, branchRef } = taken ?? await projectWorktreeGit(worktree, repoPath);
      const git = { commonDir, worktreeDir, branchRefsDir: join(commonDir, dirname(branchRef)) };
      const prepared = user !== null && preparedAs === sandboxShareTag(user);
      // The repository's parts were shared beside the checkout; a prepared take's worktree and git
      // entry by the pool when it filled it. Only their folders are looked at again.
      const repositoryParts = writableGitParts(git).filter((part) => part !== worktreeDir);
      const sharedGitParts = user === null ? [] : [
        ...((await repositoryShared) === true && await foldersShared(repositoryParts, user) ? repositoryParts : []),
        ...(prepared && taken !== undefined && await foldersShared([worktreeDir], user) ? [worktreeDir] : []),
      ];
      return shell.enter({ worktree, worktreeShared: prepared, sharedGitParts, git });
    },
    close: shell.close,
  };
}

/**
 * A worktree's git paths, asked of git, which validates them, and refused unless they name the
 * project's own repository and one of its worktrees, whatever git would follow: the worktree's
 * .git file and its admin folder's HEAD and commondir are the agent's to write, and a retry, a
 * merge's verify and Ringmaster's own commit and rebase after an agent work in that worktree.
 */
export async function projectWorktreeGit(worktree: string, repoPath: string): Promise<{ commonDir: string; worktreeDir: string; branchRef: string }> {
  const [asked, repoGitDir] = await Promise.all([
    git(worktree, ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir", "--symbolic-full-name", "HEAD"]),
    repositoryGitDir(repoPath),
  ]);
  const [named, namedWorktreeDir, branchRef] = asked.trim().split("\n");
  const [commonDir, worktreeDir] = await Promise.all([realpath(named), realpath(namedWorktreeDir)]);
  if (commonDir !== repoGitDir) throw new Error(`the worktree ${worktree} belongs to the repository at ${commonDir}, not the project's (${repoGitDir}): refused`);
  if (dirname(worktreeDir) !== join(commonDir, "worktrees")) throw new Error(`the worktree ${worktree} names ${worktreeDir} as its git folder, which is none of ${commonDir}/worktrees/: refused`);
  if (!branchRef?.startsWith("refs/heads/")) throw new Error(`the worktree ${worktree} has no branch checked out`);
  return { commonDir, worktreeDir, branchRef };
}

/**
 * The git folder of the project's repository, from its path alone (never from a worktree, which
 * the agent writes): `<repo>/.git`, or the repository itself where it is bare.
 */
async function repositoryGitDir(repoPath: string): Promise<string> {
  // Synchronous calls (microseconds) on every run's start, as the pooled take's.
  const repo = realpathSync(repoPath);
  let dotGit;
  try {
    dotGit = lstatSync(join(repo, ".git"));
  } catch {
    dotGit = null;
  }
  if (!dotGit) return repo;
  if (dotGit.isDirectory()) return join(repo, ".git");
  // A .git file or link (a git folder kept elsewhere): rare, so git is asked, in the repository.
  return realpath((await git(repo, ["rev-parse", "--path-format=absolute", "--git-common-dir"])).trim());
}

/** A new branch's share of the repository (shareRunRepository). */
export interface RepositoryShare {
  /**
   * The branch's ref folder made and shared (or nothing to do): a ref made in it from now on is the
   * sandbox group's by the folder's set-group-id bit, so the branch is made after it. Never rejects.
   */
  branchFolder: Promise<void>;
  /** The repository's parts shared: false where agents have no user of their own, or the walk failed (the sandbox's entry then walks them itself). */
  shared: Promise<boolean>;
}

/**
 * Shares the project's repository's parts every run writes (its objects, reflogs and the folder of
 * the branch's ref) with the sandbox's group, for a run whose worktree is being checked out
 * meanwhile.
 */
export function shareRunRepository(repoPath: string, branch: string): RepositoryShare {
  const folder = (async () => {
    const status = await getSandboxStatus();
    const user = status.ok ? status.host.user : null;
    if (!user) return null;
    const commonDir = await repositoryGitDir(repoPath);
    // The branch's ref folder is made now if missing (git removes it with its last ref) and shared,
    // before the branch is made in it: a ref made by root in a folder not yet the group's would be
    // root's group's, and the next run's look would walk the repository again.
    const refsDir = join(commonDir, "refs", "heads", dirname(branch));
    mkdirSync(refsDir, { recursive: true });
    shareFolder(refsDir, user);
    return { user, commonDir, refsDir };
  })();
  const shared = folder.then(async (made) => {
    if (!made) return false;
    const { user, commonDir, refsDir } = made;
    const objects = join(commonDir, "objects");
    const logs = join(commonDir, "logs");
    // Nothing our git wrote since the last run's start needs it (the usual case): no process at all.
    if (await sharedAlready([objects, refsDir], [logs], user)) return true;
    await shareWithSandboxGroup([objects, logs, refsDir], user);
    return true;
  }).catch(() => false);
  return { branchFolder: folder.then(() => {}, () => {}), shared };
}

/** Whether each folder is one (not a link), the sandbox group's, writable by it and setgid. */
async function foldersShared(paths: string[], user: NonNullable<SandboxUser>): Promise<boolean> {
  const stats = await Promise.all(paths.map((p) => lstat(p).catch(() => null)));
  return stats.every((st) => st !== null && st.isDirectory() && st.gid === user.gid && (st.mode & 0o2070) === 0o2070);
}

type StoredEgress = EgressCounts & { recorded?: string[] };

/**
 * Adds a sandbox's egress counts to its run's (a merge's verify adds to the agent's). `key`
 * names this sandbox's report: a write retried after a lost connection (it may have
 * committed) adds nothing the second time.
 */
export async function recordEgress(runId: string, counts: EgressCounts, key: string = randomUUID()): Promise<void> {
  if (!Object.keys(counts.allowed).length && !Object.keys(counts.blocked).length) return;
  const db = getDb();
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Run" WHERE id = ${runId} FOR UPDATE`;
    const run = await tx.run.findUnique({ where: { id: runId }, select: { egress: true } });
    const before = (run?.egress ?? { allowed: {}, blocked: {} }) as StoredEgress;
    if (before.recorded?.includes(key)) return;
    const sum = (a: Record<string, number>, b: Record<string, number>) => {
      const out = { ...a };
      for (const [host, n] of Object.entries(b)) out[host] = (out[host] ?? 0) + n;
      return out;
    };
    const egress = { allowed: sum(before.allowed, counts.allowed), blocked: sum(before.blocked, counts.blocked), recorded: [...(before.recorded ?? []), key] };
    await tx.run.update({ where: { id: runId }, data: { egress: egress as Prisma.InputJsonValue } });
  });
}
