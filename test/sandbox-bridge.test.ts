import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgentProcess } from "@/lib/agents/process";
import { startSandbox } from "@/lib/sandbox/session";
import { getSandboxStatus } from "@/lib/sandbox/status";

/**
 * The agent starts only once both bridges listen (lib/sandbox/bwrap.ts waits on the sandbox's
 * socket table, not on a probe connection): a command whose very first instructions connect
 * to the MCP port and to the proxy port finds both listening, and is answered by the gateway
 * and by the proxy, each time.
 */
describe("the sandbox's bridges", () => {
  it("listen before the agent's first instruction, on both ports", async () => {
    const status = await getSandboxStatus();
    if (!status.ok) throw new Error(status.reason);
    const worktree = await mkdtemp(join(tmpdir(), "bridge-"));
    execFileSync("git", ["init", "-q", worktree]);
    const asked: string[] = [];
    const session = await startSandbox(status.host, {
      worktree, git: null, policy: { mode: "allow-list", rules: [] }, readOnly: [],
      mcp: { token: "t", serve: async (req) => { asked.push(`${req.method} ${new URL(req.url).pathname}`); return new Response("gateway answered"); } },
    });
    const lines: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        await runAgentProcess({
          // bash connects with a builtin (/dev/tcp), within a millisecond or two of its start:
          // faster than socat starts listening, so a bridge not yet up would be seen refusing.
          command: "/bin/bash",
          args: ["-c", [
            "for port in 3129 3128; do if : 2>/dev/null 3<>/dev/tcp/127.0.0.1/$port; then echo $port listening; else echo $port refused; fi; done",
            "curl -s --noproxy '*' -X POST http://127.0.0.1:3129/mcp; echo",
            // Not on the (empty) allow-list: the proxy itself answers 403.
            "curl -s -o /dev/null -w 'proxy %{http_code}\\n' -x http://127.0.0.1:3128 http://example.com/",
          ].join("\n")],
          cwd: worktree, maxDurationMs: 60_000, env: { PATH: process.env.PATH! },
          onLine: ({ line }) => lines.push(line), launch: session.launch,
        });
      }
    } finally {
      const counts = await session.close();
      expect(counts.blocked).toEqual({ "example.com": 3 });
      await rm(worktree, { recursive: true, force: true });
    }
    expect(lines).toEqual(Array.from({ length: 3 }, () => ["3129 listening", "3128 listening", "gateway answered", "proxy 403"]).flat());
    // The bash probes reached the gateway too, as connections without a request.
    expect(asked).toEqual(["POST /api/mcp", "POST /api/mcp", "POST /api/mcp"]);
  });
});
