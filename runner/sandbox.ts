import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import type { LaunchSpec } from "@/lib/agents/process";
import { DEMO_AGENT_PATH } from "@/lib/agents/demo";
import { mcpWiring } from "@/lib/agents/mcp-config";
import { git } from "@/lib/git";
import { bwrapArgs, launcherEnvironment, MCP_PATH, SANDBOX_HOME, SANDBOX_MCP_URL } from "@/lib/sandbox/bwrap";
import { startMcpGateway, type McpServe } from "@/lib/sandbox/mcp-gateway";

const BWRAP = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"].find(existsSync) ?? null;

export type SandboxMode = "auto" | "off";

/** Where one run's agent starts, and how it reaches the server's MCP endpoint. */
export type RunnerSession = {
  launch: (spec: LaunchSpec) => LaunchSpec;
  label: string;
  /** The agent's MCP endpoint as it sees it: the run's gateway to the server's /api/mcp. */
  mcpUrl: string | null;
  /** The run's private HOME as the agent's CLI flags name it, and a file written into it. */
  home: string;
  /** Whether the agent's HOME is that private one (sandboxed), not the user's own. */
  ownHome: boolean;
  /** Whether the agent dies with the runner by itself (bwrap's --die-with-parent): then no watchdog. */
  diesWithParent: boolean;
  writeHomeFile: (path: string, content: string) => Promise<void>;
  /** Stops the gateway and removes the run's HOME. */
  close: () => Promise<void>;
};

/**
 * The server's `/api/mcp`, asked with whatever request the gateway passes (it adds the run's
 * token). Fetch has already decoded the body, so the answer's transfer headers are not copied.
 */
export function serverMcp(url: string): McpServe {
  return async (req) => {
    const body = req.method === "POST" ? await req.arrayBuffer() : undefined;
    const res = await fetch(new URL("/api/mcp", url), { method: req.method, headers: req.headers, body }).catch(() => null);
    if (!res) return Response.json({ error: { code: "unavailable", message: "the Ringmaster server cannot be reached" } }, { status: 502 });
    const headers = new Headers(res.headers);
    for (const name of ["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"]) headers.delete(name);
    return new Response(res.body, { status: res.status, headers });
  };
}

/**
 * How the runner starts one run's agent: inside bubblewrap where it is installed (own pid, net
 * and user namespaces; only the worktree and the branch's git parts writable; no network), or
 * as a plain child process with `--sandbox off` (e.g. for agents that must reach a model API).
 * Either way the agent reaches the server's MCP endpoint through a gateway of this run that
 * speaks with the run's token (a socket bridged into the sandbox, or a loopback port), and its
 * CLI's MCP config is written into a HOME of this run, never the user's own.
 */
export async function openRunnerSession(mode: SandboxMode, worktree: string, mcp: { url: string; token: string } | null): Promise<RunnerSession> {
  const root = await mkdtemp(join(tmpdir(), "rm-runner-run-"));
  const home = join(root, "home");
  const sockets = join(root, "sockets");
  await Promise.all([mkdir(home, { mode: 0o700 }), mcp ? mkdir(sockets, { mode: 0o755 }) : null]);
  const sandboxed = mode === "auto" && BWRAP !== null;
  // The gateway and git's answers are awaited together: the agent's start waits for both.
  const [gateway, gitDirs] = await Promise.all([
    mcp ? startMcpGateway({ ...(sandboxed ? { socketPath: join(sockets, "mcp.sock") } : {}), token: mcp.token, serve: serverMcp(mcp.url) }) : null,
    sandboxed ? Promise.all([git(worktree, ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir"]), git(worktree, ["symbolic-ref", "HEAD"])]) : null,
  ]);
  const common = {
    mcpUrl: gateway ? (sandboxed ? SANDBOX_MCP_URL : `http://127.0.0.1:${gateway.port}${MCP_PATH}`) : null,
    writeHomeFile: async (path: string, content: string) => {
      const target = resolve(home, path);
      if (relative(home, target).startsWith("..")) throw new Error(`${path} is outside the run's HOME`);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await writeFile(target, content, { mode: 0o600 });
    },
    close: async () => {
      await gateway?.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  if (!sandboxed) {
    return { ...common, home, ownHome: false, diesWithParent: false, launch: (spec) => spec, label: mode === "off" ? "unsandboxed (--sandbox off)" : "unsandboxed (bwrap is not installed)" };
  }
  const [commonDir, worktreeDir] = gitDirs![0].trim().split("\n");
  const branchRef = gitDirs![1].trim();
  const mounts = {
    worktree, home, egressDir: gateway ? sockets : null, sockets: { proxy: false, mcp: gateway !== null }, readOnly: [DEMO_AGENT_PATH],
    git: { commonDir, worktreeDir, branchRefsDir: join(commonDir, dirname(branchRef)) },
  };
  return {
    ...common,
    home: SANDBOX_HOME,
    ownHome: true,
    // bwrap's --die-with-parent: the agent dies with the runner, no watchdog process needed.
    diesWithParent: true,
    label: "sandboxed (bwrap, no network)",
    launch: (spec) => ({ command: BWRAP!, args: bwrapArgs(mounts, null, spec), env: { ...launcherEnvironment(spec.env), HOME: SANDBOX_HOME, TMPDIR: "/tmp" } }),
  };
}

/**
 * Points the run's CLI at the MCP gateway with the CLI's own flags and files (lib/agents/mcp-config.ts),
 * as a worker does; a CLI without MCP support (shell, aider) still finds the URL in RINGMASTER_MCP_URL.
 * Unsandboxed the agent keeps the user's HOME, which is never written: a CLI that reads its MCP
 * servers only from there (Gemini CLI) is left unwired, and `unwired` says why.
 */
export async function wireRunnerMcp(session: RunnerSession, adapter: string): Promise<{ wired: boolean; unwired?: string; args: string[]; env: Record<string, string> }> {
  if (!session.mcpUrl) return { wired: false, args: [], env: {} };
  const env = { RINGMASTER_MCP_URL: session.mcpUrl };
  const wiring = mcpWiring(adapter, session.mcpUrl, session.home);
  if (!wiring) return { wired: false, args: [], env };
  const fromHome = wiring.files.filter((f) => !wiring.args.includes(`${session.home}/${f.path}`));
  if (!session.ownHome && fromHome.length) {
    return { wired: false, unwired: `${adapter} reads its MCP servers only from ~/${fromHome[0].path}, which the runner does not write outside its sandbox`, args: [], env };
  }
  for (const file of wiring.files) await session.writeHomeFile(file.path, file.content);
  return { wired: true, args: wiring.args, env: { ...wiring.env, ...env } };
}
