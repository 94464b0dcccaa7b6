import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { hashToken } from "@/lib/auth/tokens";
import { closeRunnerWake } from "@/lib/runners/wake";
import { POST as postToken, GET as listTokens } from "@/app/api/tokens/route";
import { DELETE as revokeToken } from "@/app/api/tokens/[id]/route";
import { GET as getLoop } from "@/app/api/projects/[id]/loop/route";
import { POST as register } from "@/app/api/runner/agents/route";
import { GET as me } from "@/app/api/runner/me/route";
import { POST as ping } from "@/app/api/runner/ping/route";
import { POST as close } from "@/app/api/runner/close/route";
import { GET as poll } from "@/app/api/runner/poll/route";
import { createBareProject } from "./helpers/runs";
import { apiToken, params, request } from "./helpers/api";
import { poolRun, registeredAgent, runnerRequest, runnerToken } from "./helpers/runners";

const noParams = { params: Promise.resolve({}) };
afterAll(closeRunnerWake);

describe("runner tokens", () => {
  it("are made by an admin as rm_runner_…, stored hashed, shown with last use, and open nothing but the runner API", async () => {
    const { team, project } = await createBareProject();
    const admin = await apiToken(team.id, "admin");
    const res = await postToken(request("POST", "/api/tokens", admin, { kind: "runner", name: "gpu box", projectId: project.id }), noParams);
    expect(res.status).toBe(201);
    const { token, apiToken: view } = await res.json();
    expect(token).toMatch(/^rm_runner_/);
    expect(view).toMatchObject({ kind: "runner", name: "gpu box", projectId: project.id, lastUsedAt: null, active: true });
    const row = await getDb().apiToken.findUniqueOrThrow({ where: { id: view.id } });
    expect(row.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);

    // Elsewhere a runner token is no token at all.
    expect((await getLoop(request("GET", `/api/projects/${project.id}/loop`, token), params(project.id))).status).toBe(401);
    expect((await listTokens(request("GET", "/api/tokens", token), noParams)).status).toBe(401);
    // And an API token, even an owner's, is no runner token.
    const owner = await apiToken(team.id, "owner");
    expect((await register(runnerRequest("POST", "/api/runner/agents", owner, randomUUID(), {}), noParams)).status).toBe(401);

    const id = randomUUID();
    expect((await register(runnerRequest("POST", "/api/runner/agents", token, id, {}), noParams)).status).toBe(201);
    const listed = (await (await listTokens(request("GET", "/api/tokens", admin), noParams)).json()).tokens;
    expect(listed.find((t: { id: string }) => t.id === view.id).lastUsedAt).not.toBeNull();

    await revokeToken(request("DELETE", `/api/tokens/${view.id}`, admin), params(view.id));
    expect((await me(runnerRequest("GET", "/api/runner/me", token, id), noParams)).status).toBe(401);
    expect((await me(runnerRequest("GET", "/api/runner/me", "rm_runner_wrong", id), noParams)).status).toBe(401);
  });
});

describe("runner registration", () => {
  it("201 with a default name, 409 with the same agent again, 400 without or with a bad X-Agent-ID, 404 unknown, field errors", async () => {
    const { team } = await createBareProject();
    const token = await runnerToken(team.id);
    const id = randomUUID();
    const first = await register(runnerRequest("POST", "/api/runner/agents", token, id, { role: "worker", capabilities: ["ts", "ts"], maxConcurrent: 2 }), noParams);
    expect(first.status).toBe(201);
    const { agent } = await first.json();
    expect(agent).toMatchObject({ id, name: `worker-${id.slice(0, 8)}`, role: "worker", capabilities: ["ts"], maxConcurrent: 2, status: "idle" });
    const again = await register(runnerRequest("POST", "/api/runner/agents", token, id, { name: "other" }), noParams);
    expect(again.status).toBe(409);
    expect((await again.json()).agent).toMatchObject({ id, name: agent.name });

    const missing = await me(runnerRequest("GET", "/api/runner/me", token, null), noParams);
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.field).toBe("X-Agent-ID");
    expect((await me(runnerRequest("GET", "/api/runner/me", token, "not-a-uuid"), noParams)).status).toBe(400);
    expect((await me(runnerRequest("GET", "/api/runner/me", token, randomUUID()), noParams)).status).toBe(404);

    for (const [body, field] of [[{ role: "boss" }, "role"], [{ maxConcurrent: 0 }, "maxConcurrent"], [{ capabilities: ["a b"] }, "capabilities.0"], [{ name: "x".repeat(101) }, "name"], [{ name: "a\u0000" }, "name"]] as const) {
      const res = await register(runnerRequest("POST", "/api/runner/agents", token, randomUUID(), body), noParams);
      expect(res.status).toBe(400);
      expect((await res.json()).error.field).toBe(field);
    }
    const taken = await register(runnerRequest("POST", "/api/runner/agents", token, randomUUID(), { name: agent.name }), noParams);
    expect(taken.status).toBe(409);
    expect((await taken.json()).error.field).toBe("name");
    expect(await getDb().agent.count({ where: { teamId: team.id } })).toBe(1);
  });

  it("stores the agent CLIs a runner reports, replaced by its next registration; a bad report is refused naming the field and registers nothing", async () => {
    const { team } = await createBareProject();
    const token = await runnerToken(team.id);
    const id = randomUUID();
    const clis = [{ adapter: "claude", path: "/usr/local/bin/claude", version: "2.1.330 (Claude Code)" }, { adapter: "pi", path: "/opt/pi/bin/pi", version: null }];
    const first = await register(runnerRequest("POST", "/api/runner/agents", token, id, { clis }), noParams);
    expect(first.status).toBe(201);
    expect((await first.json()).agent.clis).toEqual(clis);
    expect((await getDb().agent.findUniqueOrThrow({ where: { id } })).clis).toEqual(clis);
    // Restarted after an install: the new list replaces the old; a runner that says nothing keeps it.
    const more = [...clis, { adapter: "codex", path: "/usr/local/bin/codex", version: "codex-cli 0.169.0" }];
    expect((await register(runnerRequest("POST", "/api/runner/agents", token, id, { clis: more }), noParams)).status).toBe(409);
    expect((await register(runnerRequest("POST", "/api/runner/agents", token, id, {}), noParams)).status).toBe(409);
    expect((await getDb().agent.findUniqueOrThrow({ where: { id } })).clis).toEqual(more);

    const cli = { adapter: "qwen", path: "/bin/qwen", version: "0.24.4" };
    for (const [list, field] of [
      ["claude", "clis"],
      [Array.from({ length: 51 }, (_, i) => ({ ...cli, adapter: `cli-${i}` })), "clis"],
      [[{ ...cli, adapter: "Qwen Code" }], "clis.0.adapter"],
      [[{ ...cli, path: "" }], "clis.0.path"],
      [[{ ...cli, path: `/${"p".repeat(1000)}` }], "clis.0.path"],
      [[{ ...cli, version: "v".repeat(201) }], "clis.0.version"],
      [[{ ...cli, version: "0.24\u0000" }], "clis.0.version"],
      [[{ ...cli, version: "\u001b[31m0.24" }], "clis.0.version"],
      [[cli, cli], "clis.1.adapter"],
    ] as const) {
      const res = await register(runnerRequest("POST", "/api/runner/agents", token, randomUUID(), { clis: list }), noParams);
      expect(res.status).toBe(400);
      expect((await res.json()).error.field).toBe(field);
    }
    expect(await getDb().agent.count({ where: { teamId: team.id } })).toBe(1);
  });

  it("another team's token cannot see or take over an agent", async () => {
    const a = await createBareProject();
    const b = await createBareProject();
    const id = await registeredAgent(await runnerToken(a.team.id));
    const other = await runnerToken(b.team.id);
    expect((await me(runnerRequest("GET", "/api/runner/me", other, id), noParams)).status).toBe(404);
    const takeover = await register(runnerRequest("POST", "/api/runner/agents", other, id, {}), noParams);
    expect(takeover.status).toBe(409);
    expect(JSON.stringify(await takeover.json())).not.toContain(a.team.id);
    expect((await getDb().agent.findUniqueOrThrow({ where: { id } })).teamId).toBe(a.team.id);
  });

  it("/me counts the inbox; ping sets idle or busy; close takes the agent offline", async () => {
    const { team, project, profile } = await createBareProject();
    const token = await runnerToken(team.id);
    const id = await registeredAgent(token, { maxConcurrent: 1 });
    await poolRun(project, profile, 1);
    await poolRun(project, profile, 2);
    const inbox = async () => (await (await me(runnerRequest("GET", "/api/runner/me", token, id), noParams)).json()).inbox;
    expect(await inbox()).toEqual({ offered: 0, assigned: 0, pool: 2, mentions: 0, inProgress: 0 });
    const got = await (await poll(runnerRequest("GET", "/api/runner/poll?wait=0", token, id), noParams)).json();
    expect(got.trigger.type).toBe("pool_task");
    expect(await inbox()).toEqual({ offered: 0, assigned: 0, pool: 1, mentions: 0, inProgress: 1 });

    const busy = await ping(runnerRequest("POST", "/api/runner/ping", token, id, { status: "busy" }), noParams);
    expect((await busy.json()).agent.status).toBe("busy");
    const bad = await ping(runnerRequest("POST", "/api/runner/ping", token, id, { status: "asleep" }), noParams);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("status");
    expect((await (await close(runnerRequest("POST", "/api/runner/close", token, id), noParams)).json()).agent.status).toBe("offline");
  });
});
