import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { createRunToken, hashToken, revokeRunToken } from "@/lib/auth/tokens";
import { GET as listTokens, POST as postToken } from "@/app/api/tokens/route";
import { DELETE as revokeToken } from "@/app/api/tokens/[id]/route";
import { GET as getLoop } from "@/app/api/projects/[id]/loop/route";
import { POST as postPrompt } from "@/app/api/projects/[id]/prompts/route";
import { GET as listMembers } from "@/app/api/team/members/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const noParams = { params: Promise.resolve({}) };

const loopState = (id: string, token: string) => getLoop(request("GET", `/api/projects/${id}/loop`, token), params(id));

describe("API tokens", () => {
  it("are shown once, stored hashed, record last use, and stop working when revoked", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const res = await postToken(request("POST", "/api/tokens", admin, { name: "CI", role: "viewer", projectId: project.id, expiresInDays: 30 }), noParams);
    expect(res.status).toBe(201);
    const { token, apiToken: view } = await res.json();
    expect(token).toMatch(/^rm_api_/);
    expect(view).toMatchObject({ name: "CI", role: "viewer", projectId: project.id, projectName: project.name, prefix: token.slice(0, 12), lastUsedAt: null, active: true });
    const row = await getDb().apiToken.findUniqueOrThrow({ where: { id: view.id } });
    expect(row.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(Math.round((row.expiresAt!.getTime() - Date.now()) / 86_400_000)).toBe(30);

    const listed = await (await listTokens(request("GET", "/api/tokens", admin), noParams)).json();
    expect(JSON.stringify(listed)).not.toContain(token);

    expect((await loopState(project.id, token)).status).toBe(200);
    expect((await getDb().apiToken.findUniqueOrThrow({ where: { id: view.id } })).lastUsedAt).toBeInstanceOf(Date);

    const revoked = await revokeToken(request("DELETE", `/api/tokens/${view.id}`, admin), params(view.id));
    expect((await revoked.json()).apiToken.active).toBe(false);
    expect((await loopState(project.id, token)).status).toBe(401);
    const audit = await getDb().auditEvent.findMany({ where: { teamId: team.id, action: { startsWith: "token." } }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["token.created", "token.revoked"]);
    expect(JSON.stringify(audit.map((a) => a.after))).not.toContain(token);
  });

  it("an expired token answers 401", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(team.id, "viewer");
    await getDb().apiToken.updateMany({ where: { tokenHash: hashToken(token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await loopState(project.id, token)).status).toBe(401);
  });

  it("a project token sees only its project and none of the team's settings", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const sibling = await createTeamWithProject({ loopEnabled: false });
    await getDb().project.update({ where: { id: sibling.project.id }, data: { teamId: team.id } });
    const scoped = await apiToken(team.id, "owner", project.id);
    expect((await loopState(project.id, scoped)).status).toBe(200);
    expect((await loopState(sibling.project.id, scoped)).status).toBe(404);
    expect((await listMembers(request("GET", "/api/team/members", scoped), noParams)).status).toBe(403);
    expect((await postToken(request("POST", "/api/tokens", scoped, { name: "escalate", role: "owner" }), noParams)).status).toBe(403);
  });

  it("validates fields, refuses another team's project and roles above the creator's", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const other = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const post = async (body: unknown) => (await postToken(request("POST", "/api/tokens", admin, body), noParams)).json();
    expect((await post({ name: "" })).error).toMatchObject({ field: "name", message: "Name is required" });
    expect((await post({ name: "x", projectId: other.project.id })).error).toMatchObject({ field: "projectId", message: "Project is not a project of this team" });
    expect((await post({ name: "x", expiresInDays: 400 })).error).toMatchObject({ field: "expiresInDays" });
    expect((await post({ name: "x", role: "owner" })).error).toMatchObject({ code: "forbidden" });
    expect(await getDb().apiToken.count({ where: { teamId: team.id } })).toBe(1);
  });
});

describe("run-scoped tokens", () => {
  it("touch only their own project, add planner prompts, and die with the run", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const other = await createTeamWithProject({ loopEnabled: false });
    await getDb().project.update({ where: { id: other.project.id }, data: { teamId: team.id } });
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "planner", adapter: "demo", status: "running" } });
    const token = await createRunToken({ id: run.id, projectId: project.id, teamId: team.id }, 60_000);
    const add = (projectId: string, t: string) => postPrompt(request("POST", `/api/projects/${projectId}/prompts`, t, { title: "from the planner" }), params(projectId));

    const ok = await add(project.id, token);
    expect(ok.status).toBe(201);
    expect((await ok.json()).prompt).toMatchObject({ origin: "planner", createdById: null });
    expect((await add(other.project.id, token)).status).toBe(404);
    expect((await listMembers(request("GET", "/api/team/members", token), noParams)).status).toBe(403);
    // Not listed among the team's tokens: it is the run's, not an admin's.
    const listed = await (await listTokens(request("GET", "/api/tokens", await apiToken(team.id, "admin")), noParams)).json();
    expect(listed.tokens.map((t: { name: string }) => t.name)).not.toContain(`run ${run.id}`);

    await revokeRunToken(run.id);
    expect((await add(project.id, token)).status).toBe(401);

    const expiring = await createRunToken({ id: run.id, projectId: project.id, teamId: team.id }, 1);
    await new Promise((r) => setTimeout(r, 5));
    expect((await add(project.id, expiring)).status).toBe(401);
    expect(await getDb().prompt.count({ where: { projectId: project.id } })).toBe(1);
  });
});
