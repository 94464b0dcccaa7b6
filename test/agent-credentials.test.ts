import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { createRunToken } from "@/lib/auth/tokens";
import { GET as listCredentials, POST as setCredential } from "@/app/api/team/credentials/route";
import { DELETE as deleteCredential } from "@/app/api/team/credentials/[name]/route";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { apiToken, request } from "./helpers/api";
import { tickAndRun } from "./helpers/run-once";

process.env.ENCRYPTION_KEY ??= "5e".repeat(32);
const noParams = { params: Promise.resolve({}) };
const KEY = "sk-ant-api03-team-secret-WXYZ";

const set = (token: string, body: unknown) => setCredential(request("POST", "/api/team/credentials", token, body), noParams);
const list = (token: string) => listCredentials(request("GET", "/api/team/credentials", token), noParams);
const remove = (token: string, name: string) => deleteCredential(request("DELETE", `/api/team/credentials/${name}`, token), { params: Promise.resolve({ name }) });

describe("a team's agent credentials", () => {
  it("are write-only, encrypted at rest, audited without their value, and managed by admins only", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const created = await set(admin, { name: "ANTHROPIC_API_KEY", value: KEY });
    expect(created.status).toBe(201);
    const body = await created.text();
    expect(body).not.toContain("team-secret");
    expect(JSON.parse(body).credential).toEqual({ name: "ANTHROPIC_API_KEY", last4: "WXYZ", updatedAt: expect.any(String) });
    expect((await (await list(admin)).json()).credentials).toEqual([{ name: "ANTHROPIC_API_KEY", last4: "WXYZ", updatedAt: expect.any(String) }]);

    const row = await getDb().agentCredential.findFirstOrThrow({ where: { teamId: team.id } });
    expect(row.encryptedValue).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain("team-secret");
    expect((await set(admin, { name: "ANTHROPIC_API_KEY", value: "sk-replaced-1234" })).status).toBe(201);
    const audit = await getDb().auditEvent.findMany({ where: { teamId: team.id, targetType: "agentCredential" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.action, a.before, a.after])).toEqual([
      ["credential.created", null, { name: "ANTHROPIC_API_KEY", last4: "WXYZ" }],
      ["credential.replaced", { name: "ANTHROPIC_API_KEY", last4: "WXYZ" }, { name: "ANTHROPIC_API_KEY", last4: "1234" }],
    ]);
    expect(JSON.stringify(audit, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toMatch(/team-secret|sk-replaced/);

    for (const token of [await apiToken(team.id, "operator"), await apiToken(team.id, "viewer"), await apiToken(team.id, "admin", project.id)]) {
      expect((await set(token, { name: "OPENAI_API_KEY", value: "sk-x" })).status).toBe(403);
      expect((await list(token)).status).toBe(403);
      expect((await remove(token, "ANTHROPIC_API_KEY")).status).toBe(403);
    }
    const other = await createTeamWithProject({ loopEnabled: false });
    expect((await (await list(await apiToken(other.team.id, "admin"))).json()).credentials).toEqual([]);
    expect((await remove(await apiToken(other.team.id, "admin"), "ANTHROPIC_API_KEY")).status).toBe(404);

    expect((await remove(admin, "ANTHROPIC_API_KEY")).status).toBe(204);
    expect(await getDb().agentCredential.count({ where: { teamId: team.id } })).toBe(0);
    expect((await getDb().auditEvent.findFirstOrThrow({ where: { teamId: team.id, action: "credential.deleted" } })).before).toEqual({ name: "ANTHROPIC_API_KEY", last4: "1234" });
  });

  it.each([
    [{ name: "DATABASE_URL", value: "postgresql://x" }, "name"],
    [{ name: "AUTH_SECRET", value: "x".repeat(40) }, "name"],
    [{ name: "GITHUB_TOKEN", value: "ghp_x" }, "name"],
    [{ name: "lower_case", value: "x" }, "name"],
    // Read by the program loader of the root process that starts the sandbox (lib/sandbox/bwrap.ts).
    [{ name: "LD_PRELOAD", value: "/srv/data/worktrees/p/b/evil.so" }, "name"],
    [{ name: "GLIBC_TUNABLES", value: "glibc.malloc.check=3" }, "name"],
    [{ name: "GCONV_PATH", value: "/tmp/x" }, "name"],
    [{ name: "OPENAI_API_KEY", value: "" }, "value"],
    [{ name: "OPENAI_API_KEY", value: "two\nlines" }, "value"],
    [{ name: "OPENAI_API_KEY", value: "nul\u0000byte" }, "value"],
  ])("refuses %j naming the field %s, storing nothing", async (input, field) => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const res = await set(await apiToken(team.id, "admin"), input);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "invalid", field });
    expect(await getDb().agentCredential.count({ where: { teamId: team.id } })).toBe(0);
  });

  it("are injected into a run whose profile allow-lists them, and only its own team's", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const other = await createTeamWithProject({ loopEnabled: false });
    await set(await apiToken(team.id, "admin"), { name: "ANTHROPIC_API_KEY", value: KEY });
    await set(await apiToken(team.id, "admin"), { name: "NOT_LISTED_KEY", value: "not-for-this-profile" });
    await set(await apiToken(other.team.id, "admin"), { name: "OPENAI_API_KEY", value: "other-teams-key" });
    const profile = await getDb().agentProfile.create({
      data: { teamId: team.id, name: "shell", adapter: "shell", commandTemplate: "env > .agent-env.txt", envAllowList: ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"] },
    });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id } });
    await addPrompt(project.id, { number: 1, title: "Show env", body: "" });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    const seen = execFileSync("git", ["-C", project.repoPath!, "show", `${run!.commitSha}:.agent-env.txt`], { encoding: "utf8" });
    expect(seen).toContain(`ANTHROPIC_API_KEY=${KEY}\n`);
    expect(seen).not.toContain("NOT_LISTED_KEY");
    expect(seen).not.toContain("other-teams-key");
    // Nothing of the value reaches the run's log, its job or the run row.
    const logs = await getDb().runLog.findMany({ where: { runId: run!.id } });
    expect(JSON.stringify({ logs, run })).not.toContain("team-secret");
    // A run token is no admin: it cannot read the list either.
    const runToken = await createRunToken({ id: run!.id, projectId: project.id, teamId: team.id }, 60_000);
    expect((await list(runToken)).status).toBe(403);
  });

  it("are masked in the run's log (as the sink writes it, to Postgres and the live stream) and failure log when the agent prints them, as are the server's secret-named variables and the run token", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    await set(await apiToken(team.id, "admin"), { name: "ANTHROPIC_API_KEY", value: KEY });
    process.env.SERVER_SIDE_API_KEY = "server-held-key-0123456789";
    const profile = await getDb().agentProfile.create({
      data: {
        teamId: team.id, name: "leaky", adapter: "shell",
        commandTemplate: `echo "key: $ANTHROPIC_API_KEY, server: $SERVER_SIDE_API_KEY, token: $RINGMASTER_TOKEN"; echo "$ANTHROPIC_API_KEY" >&2; exit 3`,
        envAllowList: ["ANTHROPIC_API_KEY", "SERVER_SIDE_API_KEY"],
      },
    });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id } });
    await addPrompt(project.id, { number: 1, title: "Leak", body: "" });
    const { run } = await tickAndRun(project.id);
    delete process.env.SERVER_SIDE_API_KEY;
    expect(run!.status).toBe("failed");
    const lines = (await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n").split("\n");
    expect(lines).toContain("key: [ANTHROPIC_API_KEY masked], server: [SERVER_SIDE_API_KEY masked], token: [RINGMASTER_TOKEN masked]");
    expect(lines).toContain("[stderr] [ANTHROPIC_API_KEY masked]");
    expect(run!.prompt!.failureLog).toContain("key: [ANTHROPIC_API_KEY masked], server: [SERVER_SIDE_API_KEY masked]");
    expect(JSON.stringify({ lines, run })).not.toMatch(/team-secret|server-held-key/);
  });
});
