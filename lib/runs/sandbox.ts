import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { getDb, type Prisma } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { git } from "@/lib/git";
import { DEMO_AGENT_PATH } from "@/lib/agents/demo";
import { networkPolicy } from "@/lib/sandbox/policy";
import { openSandboxShell, type SandboxSession } from "@/lib/sandbox/session";
import { getSandboxStatus } from "@/lib/sandbox/status";
import { sandboxShareTag } from "@/lib/sandbox/ownership";
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

/** A run's sandbox before its worktree (SandboxShell): `enter` takes the worktree and its pool preparation. */
export type RunSandboxShell = {
  enter: (worktree: string, preparedAs?: string) => Promise<SandboxSession>;
  close: () => Promise<EgressCounts>;
};

/**
 * The sandbox a run's agent and verify command start in. Fails closed: where the sandbox
 * cannot be made, the run is refused, unless an admin opted the project into unsandboxed runs
 * and the operator allows such opt-ins.
 */
export async function openRunSandbox(input: RunSandboxInput & {
  worktree: string;
  /** The pool's preparation the worktree still has (CreatedWorktree's preparedAs). */
  preparedAs?: string;
}): Promise<SandboxSession> {
  const shell = await prepareRunSandbox(input);
  try {
    return await shell.enter(input.worktree, input.preparedAs);
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
    enter: async (worktree, preparedAs) => {
      // Asked of git, which validates them: the worktree's .git file, its admin folder's HEAD and
      // commondir are the agent's to write (a retry and a merge's verify reuse them), and what they
      // name is shared with the sandbox's group by root and bound writable.
      const [commonDir, worktreeDir, branchRef] = (await git(worktree, ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir", "--symbolic-full-name", "HEAD"])).trim().split("\n");
      if (!branchRef?.startsWith("refs/heads/")) throw new Error(`the worktree ${worktree} has no branch checked out`);
      return shell.enter({
        worktree,
        worktreeShared: user !== null && preparedAs === sandboxShareTag(user),
        git: { commonDir, worktreeDir, branchRefsDir: join(commonDir, dirname(branchRef)) },
      });
    },
    close: shell.close,
  };
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
