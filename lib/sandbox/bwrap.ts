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
  /**
   * The network namespace the command joins instead of a new one (a NetworkHolder's, whose bridges
   * already listen), as `readlink /proc/self/ns/net` names it: checked inside before the command
   * runs, so a namespace that is not this one (the holder gone, its pid reused) starts nothing.
   */
  joinedNetwork?: string;
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

// The namespaces, the system folders (read-only), /proc, /dev and an empty /tmp.
function baseArgs(user: SandboxUser, ownNetwork: boolean): string[] {
  return [
    "--unshare-pid", ...(ownNetwork ? ["--unshare-net"] : []), "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
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
}

// By its path: bwrap looks a bare name up in the command's PATH, which a team's credential may set
// (to a folder an agent wrote), and runs it as root before the privileges are dropped. The
// system's own folders (mounted at the same paths in the sandbox); null when it is in none of them.
export const SETPRIV: string | null = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"].map((d) => `${d}/setpriv`).find((p) => existsSync(p)) ?? null;

const dropPrivileges = (user: SandboxUser) =>
  user ? [SETPRIV ?? "/usr/bin/setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"] : [];

function bridgePorts(sockets: SandboxMounts["sockets"]): [number, string][] {
  const bridges: [number, string][] = [];
  if (sockets.proxy) bridges.push([PROXY_PORT, EGRESS_SOCKET]);
  if (sockets.mcp) bridges.push([MCP_PORT, MCP_SOCKET]);
  return bridges;
}

// Each bridge must listen before the agent's first connection, so what follows runs once they do.
// The wait reads the sandbox's own socket table with shell builtins only: no probe process, no
// sleep process and no connection to the proxy (a probe by socat cost a process start or more
// per bridge, on the path of every run's start). A bridge listens within a few milliseconds.
function bridgeScript(sockets: SandboxMounts["sockets"], then: string): string {
  const bridges = bridgePorts(sockets);
  return [
    ...bridges.map(([port, socket]) => `socat TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${socket} 2>/dev/null &`),
    LISTENING,
    ...bridges.map(([port]) => `until listening ${listenEntry(port)}; do :; done`),
    then,
  ].join("\n");
}

/** What a joined command's check exits with when its network namespace is not the one expected. */
export const WRONG_NETWORK_EXIT = 97;

// Run inside, before the command: $0 is the namespace expected. readlink (from the system's PATH,
// not the command's) is the one process it costs.
const NETWORK_CHECK = `[ "$(command -p readlink /proc/self/ns/net)" = "$0" ] || { echo "ringmaster: the sandbox's network namespace is not its own; nothing started" >&2; exit ${WRONG_NETWORK_EXIT}; }\nexec "$@"`;

/**
 * The bwrap command line for one sandboxed command: fresh pid, net, ipc and uts namespaces,
 * a root that holds only the system folders (read-only), the worktree, its git folder, a
 * private HOME and /tmp, and the egress socket, bridged to 127.0.0.1:3128 for TCP clients.
 * With `joinedNetwork`, the network namespace is a holder's (networkHolderArgs), whose bridges
 * listen already: the command is started in it by `nsenter` (lib/sandbox/session.ts).
 */
export function bwrapArgs(mounts: SandboxMounts, user: SandboxUser, cmd: Command): string[] {
  const made = new Set(["/", "/tmp", "/home", "/run", ...SYSTEM_DIRS, ...MERGED_DIRS]);
  const joined = mounts.joinedNetwork;
  const args = baseArgs(user, !joined);
  const bind = (flag: string, from: string, to = from) => args.push(...withParents(to, made), flag, from, to);
  for (const file of mounts.readOnly) bind("--ro-bind", file);
  if (mounts.git) {
    bind("--ro-bind", mounts.git.commonDir);
    for (const dir of writableGitParts(mounts.git)) bind("--bind", dir);
  }
  bind("--bind", mounts.worktree);
  bind("--bind", mounts.home, SANDBOX_HOME);
  // A joined command reaches the bridges over TCP only: the sockets they connect to stay the holder's.
  if (mounts.egressDir && !joined) bind("--ro-bind", mounts.egressDir, EGRESS_DIR);
  args.push("--chdir", mounts.worktree, "--", ...dropPrivileges(user));
  const inner = cmd.shell ? ["/bin/sh", "-c", cmd.command] : [cmd.command, ...cmd.args];
  if (joined) return [...args, "/bin/sh", "-c", NETWORK_CHECK, joined, ...inner];
  if (!mounts.egressDir) return [...args, ...inner];
  return [...args, "/bin/sh", "-c", bridgeScript(mounts.sockets, 'exec "$@"'), "sandbox", ...inner];
}

/** What a NetworkHolder prints once its bridges listen. */
export const HOLDER_READY = "bridges listening";

/**
 * A network namespace made ahead of a run (lib/sandbox/network-holder.ts): the bridges to the
 * sockets `egressDir` will hold listen in it, as the sandbox user, in a pid namespace of their own
 * (an agent that joins the network cannot see or signal them). Prints HOLDER_READY once they
 * listen, then lives as long as they do.
 */
export function networkHolderArgs(egressDir: string, user: SandboxUser, sockets: SandboxMounts["sockets"]): string[] {
  const args = baseArgs(user, true);
  args.push("--ro-bind", egressDir, EGRESS_DIR, "--chdir", "/", "--", ...dropPrivileges(user));
  return [...args, "/bin/sh", "-c", bridgeScript(sockets, `echo ${HOLDER_READY}\nwait`)];
}

// Whether /proc/net/tcp (this network namespace's IPv4 sockets) has "<address:port> … 0A" (LISTEN).
const LISTENING = 'listening() { while read -r _ a _ s _; do [ "$a $s" = "$1 0A" ] && return 0; done </proc/net/tcp; return 1; }';

/** A loopback listener's local address as /proc/net/tcp writes it: 127.0.0.1:3128 is 0100007F:0C38. */
export const listenEntry = (port: number) => `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * Variables the dynamic loader and the C library act on in every process they start, including
 * the ones that start a sandbox outside it (nsenter, bwrap: as root where we are root). A team
 * admin names a credential's variable and its value, so `LD_PRELOAD=<a library an agent wrote>`
 * would run code there, outside the sandbox; such a variable never reaches an agent (glibc's list
 * of variables it drops for set-uid programs, GLIBC_TUNABLES and every LD_ and MALLOC_ one).
 */
const LOADER_VARIABLE = /^(LD_[A-Z0-9_]*|MALLOC_[A-Z0-9_]*|GLIBC_TUNABLES|GCONV_PATH|GETCONF_DIR|HOSTALIASES|LOCALDOMAIN|LOCPATH|NIS_PATH|NLSPATH|RESOLV_HOST_CONF|RES_OPTIONS|TZDIR)$/;

export const isLoaderVariable = (name: string) => LOADER_VARIABLE.test(name);

/** A sandbox launcher's environment: the command's, without any loader variable (isLoaderVariable). */
export function launcherEnvironment(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isLoaderVariable(name)));
}

/** What an agent needs to find the proxy; a process that ignores these reaches nothing at all. */
export function proxyEnvironment(): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  // The sandbox's own loopback holds only our bridges, so going to it directly opens nothing,
  // and the MCP bridge must be reached directly (the proxy refuses local addresses).
  const local = "127.0.0.1,localhost";
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, ALL_PROXY: url, NO_PROXY: local, no_proxy: local };
}
