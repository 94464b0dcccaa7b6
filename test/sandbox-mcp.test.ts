import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { PROXY_PROBE_JS } from "@/lib/sandbox/proxy-probe";
import { MCP_GATEWAY_HOST } from "@/lib/sandbox/session";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

// Runs inside the sandbox (the prompt's body, on the shell agent's stdin): each line it prints is a verdict.
const PROBE = String.raw`
import { request } from "node:http";
const mcp = new URL(process.env.RINGMASTER_MCP_URL);
const raw = (method, path, headers = {}, body) => new Promise((resolve) => {
  const req = request({ host: mcp.hostname, port: mcp.port, method, path, headers }, (res) => {
    let text = ""; res.on("data", (c) => { text += c; }); res.on("end", () => resolve({ status: res.statusCode, text }));
  });
  req.on("error", (e) => resolve({ status: 0, text: e.message }));
  req.end(body);
});
const rpc = (body, headers = {}) => raw("POST", "/mcp", { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, JSON.stringify(body));
console.log("url:", process.env.RINGMASTER_MCP_URL);
const init = await rpc({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } } });
console.log("initialize:", init.status, JSON.parse(init.text).result.serverInfo.name);
// Whatever token the agent sends, the gateway speaks with the run's own.
const call = await rpc({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "report_progress", arguments: { text: "from the sandbox" } } }, { authorization: "Bearer rm_api_forged" });
console.log("report_progress:", call.status, JSON.parse(JSON.parse(call.text).result.content[0].text).seq);
for (const [method, path] of [["GET", "/api/projects"], ["GET", "/api/health"], ["POST", "/api/mcp"], ["GET", "/mcp/../api/projects"], ["PUT", "/mcp"]]) {
  console.log(method, path + ":", (await raw(method, path)).status);
}
console.log("GET /mcp:", (await raw("GET", "/mcp")).status);
`;

describe("Ringmaster's MCP endpoint from inside the sandbox", () => {
  it.each([
    ["allow-list", ["GET,HEAD example.invalid"]],
    ["none", []],
  ])("reaches the MCP path as the run and nothing else of the app (network %s)", async (networkMode, egressRules) => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const web = Number(new URL(getEnv().APP_URL).port || 80);
    const proxied = (line: string) => `${process.execPath} -e '${PROXY_PROBE_JS}' '${line}' ' 200 ' && echo "${line}: ESCAPED" || echo "${line}: blocked"`;
    const commandTemplate = [
      `tail -n +3 | ${process.execPath} --input-type=module -`,
      ...(networkMode === "none" ? [] : [proxied(`GET http://127.0.0.1:${web}/api/health HTTP/1.1`), proxied("CONNECT example.org:443 HTTP/1.1")]),
    ].join("\n");
    const profile = await getDb().agentProfile.create({ data: { teamId: team.id, name: "probe", adapter: "shell", commandTemplate } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id, networkMode, egressRules } });
    await addPrompt(project.id, { number: 1, title: "Probe", body: PROBE });

    const { run } = await tickAndRun(project.id);
    const log = (await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n").split("\n");
    const verdicts = log.filter((l) => /^(url|initialize|report_progress|GET|POST|PUT)\b|: (blocked|ESCAPED)$/.test(l));
    expect(verdicts).toEqual([
      "url: http://127.0.0.1:3129/mcp",
      "initialize: 200 ringmaster",
      "report_progress: 200 1",
      "GET /api/projects: 404", "GET /api/health: 404", "POST /api/mcp: 404", "GET /mcp/../api/projects: 404", "PUT /mcp: 404",
      // The path is passed on: the endpoint itself answers GET with 405 (it streams nothing).
      "GET /mcp: 405",
      ...(networkMode === "none" ? [] : [`GET http://127.0.0.1:${web}/api/health HTTP/1.1: blocked`, "CONNECT example.org:443 HTTP/1.1: blocked"]),
    ]);
    const thread = await getDb().thread.findUniqueOrThrow({ where: { promptId: run!.promptId! }, include: { turns: true } });
    expect(thread.turns.map((t) => [t.actor, t.action, t.actorId, t.content])).toEqual([["worker", "progress", run!.id, "from the sandbox"]]);
    expect(run!.egress).toEqual({
      allowed: {},
      blocked: { [MCP_GATEWAY_HOST]: 5, ...(networkMode === "none" ? {} : { "127.0.0.1": 1, "example.org": 1 }) },
      recorded: ["agent"],
    });
  });
});
