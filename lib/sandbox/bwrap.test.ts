import { describe, expect, it } from "vitest";
import { bwrapArgs, HOLDER_READY, listenEntry, networkHolderArgs, WRONG_NETWORK_EXIT, type SandboxMounts } from "@/lib/sandbox/bwrap";

const mounts: SandboxMounts = {
  worktree: "/srv/data/worktrees/p1/b1",
  git: { commonDir: "/srv/repos/app/.git", worktreeDir: "/srv/repos/app/.git/worktrees/b1", branchRefsDir: "/srv/repos/app/.git/refs/heads/ringmaster" },
  home: "/tmp/sbx/home",
  egressDir: null,
  sockets: { proxy: false, mcp: false },
  readOnly: [],
};
const LISTENING = 'listening() { while read -r _ a _ s _; do [ "$a $s" = "$1 0A" ] && return 0; done </proc/net/tcp; return 1; }';
const after = (args: string[], flag: string) => args.slice(args.indexOf(flag));
// Both bridges started, then waited for until each listens.
const BOTH_BRIDGES = [
  "socat TCP-LISTEN:3128,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/run/ringmaster/egress.sock 2>/dev/null &",
  "socat TCP-LISTEN:3129,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/run/ringmaster/mcp.sock 2>/dev/null &",
  LISTENING,
  "until listening 0100007F:0C38; do :; done",
  "until listening 0100007F:0C39; do :; done",
];

describe("listenEntry", () => {
  it("writes a loopback port as /proc/net/tcp does", () => {
    expect(listenEntry(3128)).toBe("0100007F:0C38");
    expect(listenEntry(3129)).toBe("0100007F:0C39");
    expect(listenEntry(80)).toBe("0100007F:0050");
  });
});

describe("bwrapArgs", () => {
  it("drops to the sandbox user with setpriv when we are root, and passes the command through unchanged", () => {
    const args = bwrapArgs(mounts, { uid: 999, gid: 995 }, { command: "claude", args: ["-p", "hi"] });
    expect(args).not.toContain("--unshare-user");
    expect(after(args, "--")).toEqual(["--", expect.stringMatching(/^\/.+\/setpriv$/), "--reuid=999", "--regid=995", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--", "claude", "-p", "hi"]);
  });

  it("keeps our own uid in a user namespace otherwise; a shell command runs through /bin/sh", () => {
    const args = bwrapArgs(mounts, null, { command: "echo hi && ls", args: [], shell: true });
    expect(args).toContain("--unshare-user");
    expect(after(args, "--")).toEqual(["--", "/bin/sh", "-c", "echo hi && ls"]);
  });

  it("mounts the git folder read-only with only its written parts and the worktree writable, behind passable parents", () => {
    const args = bwrapArgs(mounts, null, { command: "true", args: [] }).join(" ");
    expect(args).toContain("--perms 0755 --dir /srv --perms 0755 --dir /srv/repos --perms 0755 --dir /srv/repos/app --ro-bind /srv/repos/app/.git /srv/repos/app/.git");
    expect(args).toContain("--bind /srv/repos/app/.git/worktrees/b1 /srv/repos/app/.git/worktrees/b1");
    expect(args).toContain("--bind /srv/repos/app/.git/refs/heads/ringmaster /srv/repos/app/.git/refs/heads/ringmaster");
    expect(args).not.toContain("--bind /srv/repos/app/.git/refs /srv");
    expect(args).toContain("--perms 0755 --dir /srv/data --perms 0755 --dir /srv/data/worktrees --perms 0755 --dir /srv/data/worktrees/p1 --bind /srv/data/worktrees/p1/b1 /srv/data/worktrees/p1/b1");
    expect(args).toContain("--bind /tmp/sbx/home /home/agent");
    expect(args).toContain("--unshare-net");
    expect(args).not.toContain("socat");
  });

  it("with an egress socket, starts the agent only once the bridge to it listens", () => {
    const args = bwrapArgs({ ...mounts, egressDir: "/tmp/sbx/egress", sockets: { proxy: true, mcp: false } }, null, { command: "agent", args: [] });
    expect(args.join(" ")).toContain("--ro-bind /tmp/sbx/egress /run/ringmaster");
    const tail = after(args, "/bin/sh");
    expect(tail[2]).toBe([
      "socat TCP-LISTEN:3128,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/run/ringmaster/egress.sock 2>/dev/null &",
      LISTENING,
      "until listening 0100007F:0C38; do :; done",
      'exec "$@"',
    ].join("\n"));
    expect(tail.slice(3)).toEqual(["sandbox", "agent"]);
  });

  it("with the MCP gateway too, bridges both sockets before the agent starts", () => {
    const args = bwrapArgs({ ...mounts, egressDir: "/tmp/sbx/egress", sockets: { proxy: true, mcp: true } }, null, { command: "agent", args: [] });
    expect(after(args, "/bin/sh")[2]).toBe([...BOTH_BRIDGES, 'exec "$@"'].join("\n"));
  });

  it("without network, bridges only the MCP gateway", () => {
    const args = bwrapArgs({ ...mounts, egressDir: "/tmp/sbx/egress", sockets: { proxy: false, mcp: true } }, null, { command: "agent", args: [] });
    expect(after(args, "/bin/sh")[2]).toBe([
      "socat TCP-LISTEN:3129,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/run/ringmaster/mcp.sock 2>/dev/null &",
      LISTENING,
      "until listening 0100007F:0C39; do :; done",
      'exec "$@"',
    ].join("\n"));
  });

  it("joining a holder's network: no namespace of its own, no bridge, no sockets' folder, and the namespace checked before the command", () => {
    const args = bwrapArgs({ ...mounts, egressDir: "/tmp/sbx/egress", sockets: { proxy: true, mcp: true }, joinedNetwork: "net:[4026532179]" }, { uid: 999, gid: 995 }, { command: "agent", args: ["-p"] });
    expect(args).not.toContain("--unshare-net");
    expect(args).toContain("--unshare-pid");
    expect(args.join(" ")).not.toContain("/run/ringmaster");
    expect(args.join(" ")).not.toContain("socat");
    const tail = after(args, "/bin/sh");
    expect(tail[2]).toBe(`[ "$(command -p readlink /proc/self/ns/net)" = "$0" ] || { echo "ringmaster: the sandbox's network namespace is not its own; nothing started" >&2; exit ${WRONG_NETWORK_EXIT}; }\nexec "$@"`);
    expect(tail.slice(3)).toEqual(["net:[4026532179]", "agent", "-p"]);
    // The check runs as the sandbox user, after the privileges are dropped.
    expect(args.findIndex((a) => a.endsWith("/setpriv"))).toBeGreaterThan(0);
    expect(args.findIndex((a) => a.endsWith("/setpriv"))).toBeLessThan(args.indexOf("/bin/sh"));
  });
});

describe("networkHolderArgs", () => {
  it("makes a network of its own whose bridges reach the holder's sockets, as the sandbox user, and says when they listen", () => {
    const args = networkHolderArgs("/tmp/net-1", { uid: 999, gid: 995 }, { proxy: true, mcp: true });
    expect(args).toContain("--unshare-net");
    expect(args).toContain("--unshare-pid");
    expect(args).toContain("--die-with-parent");
    expect(args.join(" ")).toMatch(/--ro-bind \/tmp\/net-1 \/run\/ringmaster --chdir \/ -- \/\S+\/setpriv --reuid=999 --regid=995/);
    expect(after(args, "/bin/sh")[2]).toBe([...BOTH_BRIDGES, `echo ${HOLDER_READY}`, "wait"].join("\n"));
  });
});
