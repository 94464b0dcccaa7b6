import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { dirname } from "node:path";

export const SANDBOX_HOME = "/home/agent";
export const EGRESS_DIR = "/run/ringmaster";
export const EGRESS_SOCKET = `${EGRESS_DIR}/egress.sock`;
export const PROXY_PORT = 3128;
/** Ringmaster's MCP endpoint as the agent sees it: a bridge to the run's gateway socket. */
export const MCP_SOCKET = `${EGRESS_DIR}/mcp.sock`;
export const MCP_PORT = 3129;
export const MCP_PATH = "/mcp";
export const SANDBOX_MCP_URL = `http://127.0.0.1:${MCP_PORT}${MCP_PATH}`;

export type SandboxMounts = {
  /** The agent's worktree, writable, at its own path (git's metadata names it by path). */
  worktree: string;
  /**
   * The repository's git folder, read-only but for what a commit on the run's branch writes:
   * objects, reflogs, the worktree's own entry and the folder of the branch's ref (so a run on
   * `ringmaster/…` cannot move the base branch). Null outside git.
   */
  git: { commonDir: string; worktreeDir: string; branchRefsDir: string } | null;
  /** A host folder owned by the sandbox user, mounted as its HOME. */
  home: string;
  /** The folder holding this run's sockets (egress proxy, MCP gateway); null when it has neither. */
  egressDir: string | null;
  /** Which sockets that folder holds. */
  sockets: { proxy: boolean; mcp: boolean };
  /** Files of Ringmaster's own the agent command needs (e.g. the demo agent), read-only. */
  readOnly: string[];
};

/** The uid/gid to drop to inside (when we are root); null keeps ours, in a user namespace. */
export type SandboxUser = { uid: number; gid: number } | null;

export type Command = { command: string; args: string[]; shell?: boolean };

const SYSTEM_DIRS = ["/usr", "/etc", "/opt"];
const MERGED_DIRS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

function systemMounts(): string[] {
  const args = SYSTEM_DIRS.filter(existsSync).flatMap((d) => ["--ro-bind", d, d]);
  for (const d of MERGED_DIRS.filter(existsSync)) {
    args.push(...(lstatSync(d).isSymbolicLink() ? ["--symlink", readlinkSync(d), d] : ["--ro-bind", d, d]));
  }
  return args;
}

export function writableGitParts(git: NonNullable<SandboxMounts["git"]>): string[] {
  return [`${git.commonDir}/objects`, `${git.commonDir}/logs`, git.branchRefsDir, git.worktreeDir];
}

// bwrap makes missing mount points 0700 as root, which the sandbox user could not pass through.
function withParents(target: string, made: Set<string>): string[] {
  const missing: string[] = [];
  for (let d = dirname(target); !made.has(d) && d !== "/"; d = dirname(d)) missing.unshift(d);
  missing.forEach((d) => made.add(d));
  return missing.flatMap((d) => ["--perms", "0755", "--dir", d]);
}

/**
 * The bwrap command line for one sandboxed command: fresh pid, net, ipc and uts namespaces,
 * a root that holds only the system folders (read-only), the worktree, its git folder, a
 * private HOME and /tmp, and the egress socket, bridged to 127.0.0.1:3128 for TCP clients.
 */
export function bwrapArgs(mounts: SandboxMounts, user: SandboxUser, cmd: Command): string[] {
  const made = new Set(["/", "/tmp", "/home", "/run", ...SYSTEM_DIRS, ...MERGED_DIRS]);
  const args = [
    "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
    ...(user ? [] : ["--unshare-user"]),
    // Without --new-session the agent shares our process group, so a SIGTERM to the group
    // reaches it and it can stop gracefully; it has no terminal to abuse (stdio are pipes).
    // --die-with-parent supervises the agent: the kernel kills bwrap when our process dies (even
    // by SIGKILL), and with it every process of the pid namespace (lib/runs/watchdog.ts).
    "--die-with-parent", "--hostname", "sandbox",
    ...systemMounts(),
    "--proc", "/proc", "--dev", "/dev",
    "--perms", "1777", "--tmpfs", "/tmp",
    "--perms", "0755", "--dir", "/home", "--perms", "0755", "--dir", "/run",
  ];
  const bind = (flag: string, from: string, to = from) => args.push(...withParents(to, made), flag, from, to);
  for (const file of mounts.readOnly) bind("--ro-bind", file);
  if (mounts.git) {
    bind("--ro-bind", mounts.git.commonDir);
    for (const dir of writableGitParts(mounts.git)) bind("--bind", dir);
  }
  bind("--bind", mounts.worktree);
  bind("--bind", mounts.home, SANDBOX_HOME);
  if (mounts.egressDir) bind("--ro-bind", mounts.egressDir, EGRESS_DIR);
  args.push("--chdir", mounts.worktree, "--");
  if (user) args.push("setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--");
  const inner = cmd.shell ? ["/bin/sh", "-c", cmd.command] : [cmd.command, ...cmd.args];
  if (!mounts.egressDir) return [...args, ...inner];
  const bridges: [number, string][] = [];
  if (mounts.sockets.proxy) bridges.push([PROXY_PORT, EGRESS_SOCKET]);
  if (mounts.sockets.mcp) bridges.push([MCP_PORT, MCP_SOCKET]);
  // Each bridge must listen before the agent's first connection, so the agent starts once they do.
  // The wait reads the sandbox's own socket table with shell builtins only: no probe process, no
  // sleep process and no connection to the proxy (a probe by socat cost a process start or more
  // per bridge, on the path of every run's start). A bridge listens within a few milliseconds.
  const bridge = [
    ...bridges.map(([port, socket]) => `socat TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${socket} 2>/dev/null &`),
    LISTENING,
    ...bridges.map(([port]) => `until listening ${listenEntry(port)}; do :; done`),
    'exec "$@"',
  ].join("\n");
  return [...args, "/bin/sh", "-c", bridge, "sandbox", ...inner];
}

// Whether /proc/net/tcp (this network namespace's IPv4 sockets) has "<address:port> … 0A" (LISTEN).
const LISTENING = 'listening() { while read -r _ a _ s _; do [ "$a $s" = "$1 0A" ] && return 0; done </proc/net/tcp; return 1; }';

/** A loopback listener's local address as /proc/net/tcp writes it: 127.0.0.1:3128 is 0100007F:0C38. */
export const listenEntry = (port: number) => `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;

/** What an agent needs to find the proxy; a process that ignores these reaches nothing at all. */
export function proxyEnvironment(): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  // The sandbox's own loopback holds only our bridges, so going to it directly opens nothing,
  // and the MCP bridge must be reached directly (the proxy refuses local addresses).
  const local = "127.0.0.1,localhost";
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, ALL_PROXY: url, NO_PROXY: local, no_proxy: local };
}
