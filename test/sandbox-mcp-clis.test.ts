import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { createRunToken } from "@/lib/auth/tokens";
import { requireAdapter } from "@/lib/agents/registry";
import { runAgentProcess } from "@/lib/agents/process";
import { runMcpServe, wireMcp } from "@/lib/runs/mcp";
import { startSandbox } from "@/lib/sandbox/session";
import { getSandboxStatus } from "@/lib/sandbox/status";
import { CLI_CACHE, cachedCli } from "./helpers/agent-cli-cache";
import { createTeamWithProject } from "./helpers/fixtures";

const CLIS = [
  { adapter: "codex", pkg: "@openai/codex", version: "0.169.0", env: { OPENAI_API_KEY: "sk-test" } },
  { adapter: "gemini", pkg: "@google/gemini-cli", version: "0.61.0", env: { GEMINI_API_KEY: "test" } },
] as const;
const installed = await Promise.all(CLIS.map((c) => cachedCli(c.pkg, c.version)));

/**
 * The real CLI, started as a run starts it (its adapter's command, the per-run MCP wiring, the
 * sandbox without network), connects to Ringmaster's MCP server through the gateway and lists
 * its tools before it would call its model, which it cannot reach; it is stopped once it has.
 */
describe.each(CLIS.map((c, i) => [c.adapter, c, installed[i]] as const))("the real %s CLI in the sandbox", (adapter, cli, found) => {
  it.skipIf("skip" in found)(`reads its per-run MCP wiring and lists Ringmaster's tools through the gateway${"skip" in found ? ` (skipped: ${found.skip})` : ""}`, async () => {
    const status = await getSandboxStatus();
    if (!status.ok) throw new Error(status.reason);
    const { team, project, profile } = await createTeamWithProject({ loopEnabled: false });
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "planner", adapter, agentProfileId: profile.id, status: "running" } });
    const token = await createRunToken({ id: run.id, projectId: project.id, teamId: team.id }, 60_000);
    const worktree = await mkdtemp(join(tmpdir(), `mcp-${adapter}-`));
    execFileSync("git", ["init", "-q", worktree]);

    const seen: string[] = [];
    const stop = new AbortController();
    const serve = runMcpServe();
    const session = await startSandbox(status.host, {
      worktree, git: null, policy: { mode: "none", rules: [] }, readOnly: [CLI_CACHE],
      mcp: {
        token,
        serve: async (req) => {
          const body = req.method === "POST" ? JSON.parse(await req.clone().text()) : {};
          seen.push(`${req.method} ${body.method ?? ""}`.trim());
          const res = await serve(req);
          if (body.method === "tools/list") {
            const names = ((await res.clone().json()).result.tools as { name: string }[]).map((t) => t.name);
            seen.push(`tools: ${names.sort().join(",")}`);
            stop.abort();
          }
          return res;
        },
      },
    });
    try {
      const mcp = await wireMcp(session, adapter);
      expect(mcp.wired).toBe(true);
      const command = requireAdapter(adapter).build({ prompt: "hello", worktree, extraArgs: mcp.args });
      const bin = (found as { bin: string }).bin;
      await runAgentProcess({
        ...command, cwd: worktree, signal: stop.signal, maxDurationMs: 120_000, killGraceMs: 500, onLine: () => {},
        env: { PATH: `${bin}:${process.env.PATH}`, ...cli.env, ...mcp.env },
        launch: session.launch,
      });
    } finally {
      await session.close();
      await rm(worktree, { recursive: true, force: true });
    }
    const tools = "tools: complete_task,create_prompt,get_task,post_message,read_messages,report_progress,verify,wait_for_user";
    expect(seen.filter((s) => s !== "GET")).toEqual(["POST initialize", "POST notifications/initialized", "POST tools/list", tools]);
  }, 180_000);
});
