import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { closeRunnerWake } from "@/lib/runners/wake";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { runnerToken } from "./helpers/runners";
import { openRunnerSession, wireRunnerMcp } from "@/runner/sandbox";
import { startRunnerApi, startRunnerProcess } from "./helpers/runner-http";

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => { for (const stop of stops.splice(0).reverse()) await stop(); });
afterAll(closeRunnerWake);

const require = createRequire(import.meta.url);
const SDK = {
  client: require.resolve("@modelcontextprotocol/sdk/client/index.js"),
  transport: require.resolve("@modelcontextprotocol/sdk/client/streamableHttp.js"),
};

// The agent of the second case: the MCP SDK's own client, reaching the endpoint its runner wired
// (RINGMASTER_MCP_URL), then the server's API as its run's token, for its own thread and another
// project's. Each line it prints is a verdict.
const sdkAgent = (ownThread: string, otherThread: string) => String.raw`
const { Client } = await import(${JSON.stringify(SDK.client)});
const { StreamableHTTPClientTransport } = await import(${JSON.stringify(SDK.transport)});
const client = new Client({ name: "sdk-agent", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(process.env.RINGMASTER_MCP_URL)));
console.log("tools: " + (await client.listTools()).tools.map((t) => t.name).sort().join(","));
const task = JSON.parse((await client.callTool({ name: "get_task", arguments: {} })).content[0].text);
console.log("task: " + task.kind + " " + task.prompt.number + " " + task.prompt.title);
console.log("report_progress: " + (await client.callTool({ name: "report_progress", arguments: { text: "remote, through the SDK" } })).content[0].text);
const bad = await client.callTool({ name: "wait_for_user", arguments: {} });
console.log("wait_for_user without summary: " + (bad.isError === true));
await client.close();
const get = (id) => fetch(process.env.RINGMASTER_URL + "/api/threads/" + id, { headers: { authorization: "Bearer " + process.env.RINGMASTER_TOKEN } }).then((r) => r.status);
console.log("own thread: " + (await get(${JSON.stringify(ownThread)})));
console.log("other project's thread: " + (await get(${JSON.stringify(otherThread)})));
`;

async function runnerProject() {
  const made = await createTeamWithProject({ maxParallel: 1, cooldownMs: 0 });
  await getDb().projectSettings.update({ where: { projectId: made.project.id }, data: { useRunners: true } });
  await getDb().loopState.update({ where: { projectId: made.project.id }, data: { mode: "running" } });
  return made;
}

async function runOnRunner(teamId: string, projectId: string, args: string[]) {
  const api = await startRunnerApi();
  stops.push(() => api.stop());
  const token = await runnerToken(teamId);
  const runner = startRunnerProcess(api.url, token, args);
  stops.push(() => new Promise((r) => { if (runner.exitCode !== null) return r(null); runner.once("exit", r); runner.kill("SIGKILL"); }));
  const fail = (err: Error) => { throw new Error(`${err.message}\nrunner:\n${runner.output()}`); };
  await waitUntil("the runner to register", async () => runner.output().includes("registered as")).catch(fail);
  // No worker process: the tick runs here and hands the prompt to the runners' pool.
  await runTick(projectId);
  const db = getDb();
  const run = await waitUntil("the remote run to end", () => db.run.findFirst({ where: { projectId, status: { in: ["succeeded", "failed", "cancelled", "timed_out"] } } }), 90_000).catch(fail);
  const log = (await db.runLog.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
  expect(runner.output()).not.toContain(token);
  return { run, log, output: runner.output() };
}

const threadTurns = async (promptId: string) => (await getDb().thread.findUniqueOrThrow({ where: { promptId }, include: { turns: { orderBy: { seq: "asc" } } } })).turns
  .map((t) => [t.seq, t.actor, t.action, t.actorId, t.content]);

describe("an agent started by a remote runner reaches the server's MCP endpoint with its run's token", () => {
  it("the demo agent, in the runner's sandbox, reports progress and writes to its prompt's thread", async () => {
    const { team, project } = await runnerProject();
    const prompt = await addPrompt(project.id, {
      number: 1, title: "Report in",
      body: ['mcp report_progress {"text":"halfway, from a remote runner"}', 'mcp post_message {"text":"Done soon."}', "print finished"].join("\n"),
    });
    const { run, log } = await runOnRunner(team.id, project.id, []);
    expect(run.status, log).toBe("succeeded");
    expect(run.remote).toBe(true);
    const bwrap = existsSync("/usr/bin/bwrap");
    expect(log).toContain(`[runner] demo agent on ringmaster/1-report-in, ${bwrap ? "sandboxed (bwrap, no network)" : "unsandboxed (bwrap is not installed)"}, its MCP config pointed at the server's /api/mcp`);
    expect(log).toContain("mcp__ringmaster__report_progress");
    expect(await threadTurns(prompt.id)).toEqual([
      [1, "worker", "progress", run.id, "halfway, from a remote runner"],
      [2, "worker", "message", run.id, "Done soon."],
    ]);
  }, 150_000);

  it("an MCP SDK client run unsandboxed drives the tools; its token gets 404 for another project's thread", async () => {
    const { team, project } = await runnerProject();
    const other = await getDb().project.create({ data: { teamId: team.id, name: "other", slug: "other", repoKind: "local", repoPath: null, planningKey: "other" } });
    const otherThread = await getDb().thread.create({ data: { projectId: other.id, title: "elsewhere" } });
    const shell = await getDb().agentProfile.create({ data: { teamId: team.id, name: "sdk", adapter: "shell", commandTemplate: `tail -n +3 | ${process.execPath} --input-type=module -` } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: shell.id } });
    const prompt = await addPrompt(project.id, { number: 1, title: "Use the SDK", body: "" });
    const ownThread = await getDb().thread.create({ data: { projectId: project.id, promptId: prompt.id, title: prompt.title } });
    await getDb().prompt.update({ where: { id: prompt.id }, data: { body: sdkAgent(ownThread.id, otherThread.id) } });

    const { run, log } = await runOnRunner(team.id, project.id, ["--sandbox", "off"]);
    expect(run.status, log).toBe("succeeded");
    expect(log).toContain("[runner] shell agent on ringmaster/1-use-the-sdk, unsandboxed (--sandbox off)");
    const verdicts = log.split("\n").filter((l) => /^(tools|task|report_progress|wait_for_user|own thread|other project's thread)\b/.test(l));
    expect(verdicts).toEqual([
      "tools: complete_task,create_prompt,get_task,post_message,read_messages,report_progress,verify,wait_for_user",
      "task: executor 1 Use the SDK",
      'report_progress: {"seq":1,"status":"sent"}',
      "wait_for_user without summary: true",
      "own thread: 200",
      "other project's thread: 404",
    ]);
    expect(await threadTurns(prompt.id)).toEqual([[1, "worker", "progress", run.id, "remote, through the SDK"]]);
  }, 150_000);

  it("unsandboxed, a CLI's config goes to the run's own folder named by its flag; one read only from HOME is left unwired", async () => {
    const worktree = mkdtempSync(join(tmpdir(), "rm-wire-"));
    execFileSync("git", ["init", "-q", worktree]);
    const session = await openRunnerSession("off", worktree, { url: "http://127.0.0.1:9", token: "rm_run_x" });
    try {
      expect(session.mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const claude = await wireRunnerMcp(session, "claude");
      expect(claude.wired).toBe(true);
      expect(claude.args.slice(0, 2)).toEqual(["--mcp-config", `${session.home}/.ringmaster/mcp.json`]);
      expect(JSON.parse(readFileSync(claude.args[1], "utf8"))).toEqual({ mcpServers: { ringmaster: { type: "http", url: session.mcpUrl } } });
      expect(session.home.startsWith(tmpdir())).toBe(true);
      expect(await wireRunnerMcp(session, "gemini")).toEqual({
        wired: false, args: [], env: { RINGMASTER_MCP_URL: session.mcpUrl },
        unwired: "gemini reads its MCP servers only from ~/.gemini/settings.json, which the runner does not write outside its sandbox",
      });
      expect(existsSync(join(session.home, ".gemini"))).toBe(false);
      // The gateway answers for the server it relays to; that one is down here.
      const res = await fetch(session.mcpUrl!, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect([res.status, (await res.json()).error.code]).toEqual([502, "unavailable"]);
    } finally {
      await session.close();
    }
    expect(existsSync(session.home)).toBe(false);
  });
});
