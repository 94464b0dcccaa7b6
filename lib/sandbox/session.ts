import { mkdtemp, mkdir, rm, chown, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { getEnv } from "@/lib/env";
import { AddressGuard } from "@/lib/sandbox/address-guard";
import { bwrapArgs, launcherEnvironment, proxyEnvironment, SANDBOX_HOME, SANDBOX_MCP_URL, writableGitParts, type SandboxMounts } from "@/lib/sandbox/bwrap";
import { startEgressProxy, type EgressCounts } from "@/lib/sandbox/egress-proxy";
import { startMcpGateway, type McpGateway, type McpServe } from "@/lib/sandbox/mcp-gateway";
import type { SandboxHost } from "@/lib/sandbox/host";
import { shareWithSandboxGroup } from "@/lib/sandbox/ownership";
import { takeNetworkHolder, type NetworkHolder } from "@/lib/sandbox/network-holder";
import type { NetworkPolicy } from "@/lib/sandbox/policy";

/** A command as the agent runner would start it; a launcher rewrites it to start confined. */
export type LaunchSpec = { command: string; args: string[]; shell?: boolean; env: Record<string, string> };
export type Launcher = (spec: LaunchSpec) => LaunchSpec;

export type SandboxSession = {
  launch: Launcher;
  /** Whether what `launch` starts dies with this process, even when it is SIGKILLed (bwrap's --die-with-parent). */
  diesWithParent: boolean;
  /** Where the agent reaches Ringmaster's MCP endpoint, as it sees it; null without a gateway. */
  mcpUrl: string | null;
  /** Writes a file into the agent's private HOME (a CLI's per-run config), owned by the agent. */
  writeHomeFile: (path: string, content: string) => Promise<void>;
  /** Stops the egress proxy, removes the sandbox's HOME and returns what the proxy counted (once). */
  close: () => Promise<EgressCounts>;
};

export type SandboxInput = {
  worktree: string;
  /** The worktree is already shared with the sandbox's group (a prepared one of the pool): only the git parts are. */
  worktreeShared?: boolean;
  git: SandboxMounts["git"];
  /** Those of its git parts (writableGitParts) shared already (the repository's beside the checkout, the entry's by the pool): not walked again. */
  sharedGitParts?: string[];
  policy: NetworkPolicy;
  /** Ringmaster's own files an agent command runs (the demo agent). */
  readOnly: string[];
  /** The run's MCP gateway: its token, and what answers its MCP path. */
  mcp?: { token: string; serve: McpServe };
};

/** Refused requests to the MCP gateway are counted with the egress under this name. */
export const MCP_GATEWAY_HOST = "ringmaster (not the MCP path)";

function nodePrefix(): string[] {
  // A node installed outside /usr (nvm, a tarball) must be visible for node-based agents.
  const prefix = dirname(dirname(process.execPath));
  return prefix === "/usr" || prefix.startsWith("/usr/") ? [] : [prefix];
}

/** The worktree a sandbox's commands work in, given once it exists (SandboxShell's enter). */
export type SandboxWorktree = Pick<SandboxInput, "worktree" | "worktreeShared" | "git" | "sharedGitParts">;

/**
 * A sandbox before its worktree: the private HOME, the egress proxy and the MCP gateway, which
 * need no worktree and so are made while the run's worktree is checked out. `enter` shares the
 * worktree with the sandbox's group and gives the session; `close` (the session's too) ends both.
 */
export type SandboxShell = {
  enter: (worktree: SandboxWorktree) => Promise<SandboxSession>;
  close: () => Promise<EgressCounts>;
};

/** Prepares one sandbox: a private HOME, the egress proxy of its policy, the worktree shared. */
export async function startSandbox(host: SandboxHost, input: SandboxInput): Promise<SandboxSession> {
  const shell = await openSandboxShell(host, input);
  try {
    return await shell.enter(input);
  } catch (err) {
    await shell.close();
    throw err;
  }
}

/** The part of a sandbox that needs no worktree (see SandboxShell). */
export async function openSandboxShell(host: SandboxHost, input: Pick<SandboxInput, "policy" | "readOnly" | "mcp">): Promise<SandboxShell> {
  const env = getEnv();
  const root = await mkdtemp(join(tmpdir(), "ringmaster-sandbox-"));
  const home = join(root, "home");
  let proxy: Awaited<ReturnType<typeof startEgressProxy>> | null = null;
  let gateway: McpGateway | null = null;
  let holder: NetworkHolder | null = null;
  const sockets = { proxy: input.policy.mode !== "none", mcp: input.mcp !== undefined };
  const egressDir = !sockets.proxy && !sockets.mcp ? null : join(root, "egress");
  try {
    // Where both bridges are wanted and `nsenter` can join a namespace (we are root), the network
    // is a holder's made ahead, whose bridges listen already (network-holder.ts).
    if (egressDir && host.user && host.nsenter && sockets.proxy && sockets.mcp) {
      holder = await takeNetworkHolder(host, egressDir);
    }
    await mkdir(home, { mode: 0o700 });
    // The worktree stays ours (see ownership.ts), so the agent's own git must be told to trust it.
    await writeFile(join(home, ".gitconfig"), "[safe]\n\tdirectory = *\n");
    if (host.user) await chown(home, host.user.uid, host.user.gid);
    if (egressDir && !holder) await mkdir(egressDir, { mode: 0o755 });
    if (egressDir && input.policy.mode !== "none") {
      const guard = await AddressGuard.create([env.DATABASE_URL, env.REDIS_URL, env.APP_URL], env.SANDBOX_LOOPBACK_PORTS);
      proxy = await startEgressProxy({ socketPath: join(egressDir, "egress.sock"), policy: input.policy, guard });
    }
    // Even a run without network reaches its own MCP endpoint: it is Ringmaster, not the internet.
    if (egressDir && input.mcp) gateway = await startMcpGateway({ socketPath: join(egressDir, "mcp.sock"), ...input.mcp });
  } catch (err) {
    await proxy?.close();
    await gateway?.close();
    await holder?.close();
    await rm(root, { recursive: true, force: true });
    throw err;
  }
  const empty: EgressCounts = { allowed: {}, blocked: {} };
  let closed: Promise<EgressCounts> | undefined;
  const close = () => {
    closed ??= (async () => {
      const counts = proxy?.counts() ?? structuredClone(empty);
      const refused = Object.values(gateway?.refused() ?? {}).reduce((a, b) => a + b, 0);
      if (refused) counts.blocked[MCP_GATEWAY_HOST] = refused;
      await proxy?.close();
      await gateway?.close();
      await holder?.close();
      await rm(root, { recursive: true, force: true });
      return counts;
    })();
    return closed;
  };
  const enter = async (at: SandboxWorktree): Promise<SandboxSession> => {
    if (closed) throw new Error("the sandbox was closed before its worktree was given");
    // A fresh bare clone has no reflog folder yet, and a packed branch no loose-ref folder.
    const gitParts = at.git ? writableGitParts(at.git).filter((part) => !at.sharedGitParts?.includes(part)) : [];
    for (const dir of gitParts) await mkdir(dir, { recursive: true });
    await shareWithSandboxGroup([...(at.worktreeShared ? [] : [at.worktree]), ...gitParts], host.user);
    const mounts: SandboxMounts = {
      worktree: at.worktree, git: at.git, home, egressDir, sockets, readOnly: [...input.readOnly, ...nodePrefix(), ...env.SANDBOX_READ_ONLY_PATHS],
      ...(holder ? { joinedNetwork: holder.netns } : {}),
    };
    return {
      diesWithParent: true,
      mcpUrl: gateway ? SANDBOX_MCP_URL : null,
      writeHomeFile: async (path, content) => {
        const target = resolve(home, path);
        if (relative(home, target).startsWith("..")) throw new Error(`${path} is outside the sandbox's HOME`);
        for (let dir = dirname(target); dir !== home; dir = dirname(dir)) {
          await mkdir(dir, { recursive: true, mode: 0o700 });
          if (host.user) await chown(dir, host.user.uid, host.user.gid);
        }
        await writeFile(target, content, { mode: 0o600 });
        if (host.user) await chown(target, host.user.uid, host.user.gid);
      },
      launch: (spec) => ({
        // nsenter joins the holder's namespace and becomes bwrap (no process of its own is left).
        ...(holder ? { command: host.nsenter!, args: [`--net=${holder.nsPath}`, "--", host.bwrap, ...bwrapArgs(mounts, host.user, spec)] } : { command: host.bwrap, args: bwrapArgs(mounts, host.user, spec) }),
        shell: false,
        // Passed through bwrap's own environment, never its arguments, which `ps` shows to all.
        env: { ...launcherEnvironment(spec.env), HOME: SANDBOX_HOME, TMPDIR: "/tmp", ...(proxy ? proxyEnvironment() : {}) },
      }),
      close,
    };
  };
  return { enter, close };
}
