import { request } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { createRunToken, revokeRunToken } from "@/lib/auth/tokens";
import { runMcpServe } from "@/lib/runs/mcp";
import { startMcpGateway, type McpGateway } from "@/lib/sandbox/mcp-gateway";
import { createTeamWithProject } from "./helpers/fixtures";

const open: { gateway: McpGateway; dir: string }[] = [];
afterEach(async () => {
  for (const { gateway, dir } of open.splice(0)) {
    await gateway.close();
    await rm(dir, { recursive: true, force: true });
  }
});

function send(socketPath: string, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ socketPath, method, path, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      let text = "";
      res.on("data", (c) => { text += c; });
      res.on("end", () => resolve({ status: res.statusCode!, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const call = (name: string, args: object) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

async function gatewayFor() {
  const { team, project, profile } = await createTeamWithProject({ loopEnabled: false });
  const prompt = await getDb().prompt.create({ data: { projectId: project.id, planningKey: project.planningKey, number: 1, title: "Add login", body: "" } });
  const run = await getDb().run.create({ data: { projectId: project.id, promptId: prompt.id, kind: "executor", adapter: "demo", agentProfileId: profile.id, status: "running" } });
  const token = await createRunToken({ id: run.id, projectId: project.id, teamId: team.id }, 60_000);
  const dir = await mkdtemp(join(tmpdir(), "mcp-gateway-"));
  const socketPath = join(dir, "mcp.sock");
  const gateway = await startMcpGateway({ socketPath, token, serve: runMcpServe() });
  open.push({ gateway, dir });
  return { run, prompt, socketPath, gateway };
}

describe("a run's MCP gateway", () => {
  it("answers as the run, refuses a body over 4 MiB with 413 and writes nothing, and counts refused paths", async () => {
    const { prompt, socketPath, gateway } = await gatewayFor();
    const ok = await send(socketPath, "POST", "/mcp", call("post_message", { text: "hello" }));
    expect(ok.status).toBe(200);
    expect(JSON.parse(JSON.parse(ok.text).result.content[0].text)).toEqual({ seq: 1, status: "sent" });

    const huge = await send(socketPath, "POST", "/mcp", call("post_message", { text: "x".repeat(4 * 1024 * 1024) }));
    expect([huge.status, JSON.parse(huge.text).error.code]).toEqual([413, "too_large"]);
    // A 1 MB turn is within the gateway's limit and refused by the tool itself, naming the field.
    const big = await send(socketPath, "POST", "/mcp", call("post_message", { text: "x".repeat(1_000_001) }));
    expect(big.status).toBe(200);
    expect(JSON.parse(big.text).result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("text") }] });
    const thread = await getDb().thread.findUniqueOrThrow({ where: { promptId: prompt.id }, include: { turns: true } });
    expect(thread.turns.map((t) => t.content)).toEqual(["hello"]);

    expect((await send(socketPath, "GET", "/api/projects")).status).toBe(404);
    expect((await send(socketPath, "DELETE", "/api/projects")).status).toBe(404);
    expect((await send(socketPath, "PATCH", "/mcp")).status).toBe(404);
    expect(gateway.refused()).toEqual({ "/api/projects": 2, "/mcp": 1 });
  });

  it("refuses with 401 once the run's token is revoked (the run ended)", async () => {
    const { run, socketPath } = await gatewayFor();
    await revokeRunToken(run.id);
    const res = await send(socketPath, "POST", "/mcp", call("post_message", { text: "too late" }));
    expect([res.status, JSON.parse(res.text).error.code]).toEqual([401, "unauthenticated"]);
    expect(await getDb().turn.count({ where: { actorId: run.id } })).toBe(0);
  });
});
