import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { getDb } from "@/lib/db";
import { issueSecret } from "@/lib/auth/tokens";
import { POST } from "@/app/api/mcp/route";
import { appendTurn } from "@/lib/threads/append";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken } from "./helpers/api";

async function runToken(run: { id: string; projectId: string }, teamId: string) {
  const { token, prefix, tokenHash } = issueSecret("api");
  await getDb().apiToken.create({ data: { teamId, projectId: run.projectId, runId: run.id, role: "operator", name: "run", tokenHash, prefix } });
  return token;
}

/** A real MCP client speaking Streamable HTTP to the route handler (no server socket needed). */
async function connect(token: string) {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: (url, init) => POST(new Request(url, init), {}),
  });
  await client.connect(transport);
  return client;
}

const data = (result: unknown) => JSON.parse((result as { content: { text: string }[] }).content[0].text);

describe("the agents' MCP endpoint", () => {
  it("drives every tool as a lead run, scoped to its own thread and project", async () => {
    const { team, project, profile } = await createTeamWithProject({ loopEnabled: false });
    const thread = await getDb().thread.create({ data: { projectId: project.id, title: "split the login feature" } });
    await appendTurn(thread.id, { actor: "person", actorId: "user:u", text: "Split login into prompts, please." });
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "lead", threadId: thread.id, threadSeq: 1, adapter: "demo", agentProfileId: profile.id, status: "running" } });
    const client = await connect(await runToken(run, team.id));

    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(["complete_task", "create_prompt", "get_task", "post_message", "read_messages", "report_progress", "verify", "wait_for_user"]);
    expect(data(await client.callTool({ name: "get_task", arguments: {} }))).toMatchObject({ runId: run.id, kind: "lead", threadId: thread.id });

    const read = data(await client.callTool({ name: "read_messages", arguments: {} }));
    expect(read.turns).toEqual([expect.objectContaining({ seq: 1, actor: "person", status: "delivered", content: "Split login into prompts, please." })]);
    expect((await getDb().turn.findFirstOrThrow({ where: { threadId: thread.id, seq: 1 } })).status).toBe("delivered");

    expect(data(await client.callTool({ name: "post_message", arguments: { text: "On it." } }))).toEqual({ seq: 2, status: "sent" });
    expect(data(await client.callTool({ name: "report_progress", arguments: { text: "reading the code" } }))).toEqual({ seq: 3, status: "sent" });
    const made = data(await client.callTool({ name: "create_prompt", arguments: { title: "Login form", body: "Add the form.", priority: 2 } }));
    const second = data(await client.callTool({ name: "create_prompt", arguments: { title: "Login API", priority: 2, dependencies: [made.number] } }));
    const prompts = await getDb().prompt.findMany({ where: { projectId: project.id }, orderBy: { number: "asc" } });
    expect(prompts.map((p) => [p.title, p.priority, p.dependencies, p.origin])).toEqual([["Login form", 2, [], "planner"], ["Login API", 2, [made.number], "planner"]]);
    expect(second.number).toBe(made.number + 1);

    const noSummary = await client.callTool({ name: "wait_for_user", arguments: {} });
    expect(noSummary.isError).toBe(true);
    expect(data(await client.callTool({ name: "wait_for_user", arguments: { summary: "Two prompts added; start them?" } }))).toEqual({ seq: 6, status: "sent" });
    expect((await getDb().thread.findUniqueOrThrow({ where: { id: thread.id } })).waitingForUser).toBe(true);
    expect(data(await client.callTool({ name: "complete_task", arguments: { summary: "Planned." } }))).toEqual({ seq: 7, status: "sent" });

    const turns = await getDb().turn.findMany({ where: { threadId: thread.id }, orderBy: { seq: "asc" } });
    expect(turns.map((t) => [t.actor, t.action, t.actorId, t.target])).toEqual([
      ["person", "message", "user:u", null], ["lead", "message", run.id, null], ["lead", "progress", run.id, null],
      ["lead", "route", run.id, `prompt:${prompts[0].id}`], ["lead", "route", run.id, `prompt:${prompts[1].id}`],
      ["lead", "wait", run.id, null], ["lead", "result", run.id, null],
    ]);
    const empty = await client.callTool({ name: "post_message", arguments: { text: "  " } });
    expect(empty.isError).toBe(true);
    expect(await getDb().turn.count({ where: { threadId: thread.id } })).toBe(7);
    await client.close();

    // Outbound: the route turn follows the worker that takes the prompt.
    const route = () => getDb().turn.findFirstOrThrow({ where: { threadId: thread.id, target: `prompt:${prompts[0].id}` } });
    expect((await route()).status).toBe("sent");
    const worker = await getDb().run.create({ data: { projectId: project.id, promptId: prompts[0].id, kind: "executor", adapter: "demo", agentProfileId: profile.id, status: "running" } });
    const executor = await connect(await runToken(worker, team.id));
    await executor.callTool({ name: "report_progress", arguments: { text: "started on the form" } });
    expect((await route()).status).toBe("delivered");
    await executor.callTool({ name: "report_progress", arguments: { text: "half way" } });
    expect((await route()).status).toBe("delivered");
    await executor.callTool({ name: "complete_task", arguments: { summary: "Form added." } });
    expect((await route()).status).toBe("evaluated");
    await executor.close();
  });

  it("writes a verify turn carrying the target the agent named, not its thread's prompt, and follows that target's worker", async () => {
    const { team, project, profile } = await createTeamWithProject({ loopEnabled: false });
    const other = await createTeamWithProject({ loopEnabled: false });
    const mk = (projectId: string, number: number, title: string) => getDb().prompt.create({ data: { projectId, planningKey: "p", number, title, body: "" } });
    const [own, fix, foreign] = [await mk(project.id, 1, "Add login"), await mk(project.id, 2, "Fix the flaky test"), await mk(other.project.id, 2, "Not yours")];
    const asker = await getDb().run.create({ data: { projectId: project.id, promptId: own.id, kind: "executor", adapter: "demo", agentProfileId: profile.id, status: "running" } });
    const client = await connect(await runToken(asker, team.id));
    const foreignRun = await getDb().run.create({ data: { projectId: other.project.id, promptId: foreign.id, kind: "executor", adapter: "demo", agentProfileId: other.profile.id, status: "running" } });

    expect(data(await client.callTool({ name: "verify", arguments: { target: "prompt:2", check: "Is the flaky test still failing?" } }))).toEqual({ seq: 1, status: "sent" });
    const thread = await getDb().thread.findUniqueOrThrow({ where: { promptId: own.id } });
    const verify = () => getDb().turn.findFirstOrThrow({ where: { threadId: thread.id, seq: 1 } });
    expect(await verify()).toMatchObject({ actor: "worker", action: "verify", target: `prompt:${fix.id}`, content: "Is the flaky test still failing?" });
    // Another project's prompt or run is not found; a malformed target names the field; nothing written.
    for (const target of ["prompt:9", `run:${foreignRun.id}`, "service:web"]) {
      const refused = await client.callTool({ name: "verify", arguments: { target, check: "x" } });
      expect(refused.isError).toBe(true);
      expect((refused.content as { text: string }[])[0].text).toMatch(target === "service:web" ? /Target must be prompt:<number> or run:<id>/ : /not found/);
    }
    expect(await getDb().turn.count({ where: { threadId: thread.id } })).toBe(1);

    // The thread's own prompt's worker reporting leaves the verify alone; the target's worker moves it.
    await client.callTool({ name: "report_progress", arguments: { text: "still on login" } });
    expect((await verify()).status).toBe("sent");
    const fixRun = await getDb().run.create({ data: { projectId: project.id, promptId: fix.id, kind: "executor", adapter: "demo", agentProfileId: profile.id, status: "running" } });
    const fixer = await connect(await runToken(fixRun, team.id));
    await fixer.callTool({ name: "report_progress", arguments: { text: "re-running the test" } });
    expect((await verify()).status).toBe("delivered");
    await fixer.callTool({ name: "complete_task", arguments: { summary: "Still green after 20 runs." } });
    expect((await verify()).status).toBe("evaluated");

    // A verify of a run follows that run.
    const runCheck = data(await client.callTool({ name: "verify", arguments: { target: `run:${fixRun.id}`, check: "Did run pass CI?" } }));
    expect((await getDb().turn.findFirstOrThrow({ where: { threadId: thread.id, seq: runCheck.seq } })).target).toBe(`run:${fixRun.id}`);
    await fixer.callTool({ name: "complete_task", arguments: { summary: "CI green." } });
    expect((await getDb().turn.findFirstOrThrow({ where: { threadId: thread.id, seq: runCheck.seq } })).status).toBe("evaluated");
    await Promise.all([client.close(), fixer.close()]);
  });

  it("writes an executor's turns into its prompt's thread as a worker, and refuses tokens that are not a run's", async () => {
    const { team, project, profile } = await createTeamWithProject({ loopEnabled: false });
    const prompt = await getDb().prompt.create({ data: { projectId: project.id, planningKey: project.planningKey, number: 1, title: "Add login", body: "" } });
    const run = await getDb().run.create({ data: { projectId: project.id, promptId: prompt.id, kind: "executor", adapter: "demo", agentProfileId: profile.id, status: "running" } });
    const client = await connect(await runToken(run, team.id));
    expect(data(await client.callTool({ name: "complete_task", arguments: { summary: "Login added." } }))).toEqual({ seq: 1, status: "sent" });
    const thread = await getDb().thread.findUniqueOrThrow({ where: { promptId: prompt.id }, include: { turns: true } });
    expect(thread.turns.map((t) => [t.actor, t.action, t.actorId])).toEqual([["worker", "result", run.id]]);
    await client.close();

    const plain = await apiToken(team.id, "owner");
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
    const call = (token: string) => POST(new Request("http://localhost/api/mcp", {
      method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(init),
    }), {});
    expect((await call(plain)).status).toBe(403);
    expect((await call("rm_api_not_a_token")).status).toBe(401);
  });
});
