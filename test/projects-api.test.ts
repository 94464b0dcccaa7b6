import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getQueue, tickSchedulerId } from "@/lib/queues";
import { GET as listProjects, POST as createProjectRoute } from "@/app/api/projects/route";
import { DELETE as archive, PATCH as patchProject } from "@/app/api/projects/[id]/route";
import { PATCH as patchSettings } from "@/app/api/projects/[id]/settings/route";
import { POST as postLoop } from "@/app/api/projects/[id]/loop/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";
import { announced } from "./helpers/runs";

describe("projects over HTTP, with their tick schedule", () => {
  it("a project's periodic tick runs only while its loop does, follows the interval, and goes on stop and archive", async () => {
    const { team, repoPath } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const created = await createProjectRoute(request("POST", "/api/projects", admin, { name: "API made", repoKind: "local", repoPath, baseBranch: "main" }), undefined as never);
    expect(created.status).toBe(201);
    const { project } = await created.json();
    // The team's open dashboards hear of it.
    expect(await announced(team.id)).toContainEqual({ type: "projectChange", projectId: project.id });
    const scheduler = () => getQueue("tick").getJobScheduler(tickSchedulerId(project.id));
    const loop = (action: string) => postLoop(request("POST", `/api/projects/${project.id}/loop`, admin, { action }), params(project.id));
    // A new project's loop is stopped: it costs no tick until someone starts it.
    expect(await scheduler()).toBeFalsy();
    expect((await loop("start")).status).toBe(200);
    expect((await scheduler())?.every).toBe(5000);

    const bad = await patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, admin, { tickIntervalMs: 10 }), params(project.id));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ field: "tickIntervalMs", message: "Tick interval must be a whole number ≥ 1000 ms" });
    const ok = await patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, admin, { tickIntervalMs: 2000 }), params(project.id));
    expect(ok.status).toBe(200);
    expect((await scheduler())?.every).toBe(2000);
    expect((await loop("stop")).status).toBe(200);
    expect(await scheduler()).toBeFalsy();
    expect((await loop("start")).status).toBe(200);
    expect((await scheduler())?.every).toBe(2000);

    const renamed = await patchProject(request("PATCH", `/api/projects/${project.id}`, admin, { name: "Renamed", baseBranch: "has space" }), params(project.id));
    expect(renamed.status).toBe(400);
    expect((await getDb().project.findUniqueOrThrow({ where: { id: project.id } })).name).toBe("API made");

    expect((await archive(request("DELETE", `/api/projects/${project.id}`, admin), params(project.id))).status).toBe(204);
    expect(await scheduler()).toBeFalsy();
    const list = await (await listProjects(request("GET", "/api/projects", admin), undefined as never)).json();
    expect(list.projects.map((p: { id: string }) => p.id)).not.toContain(project.id);
  });

  it("refuses an operator creating projects and names the bad field", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const operator = await apiToken(team.id, "operator");
    expect((await createProjectRoute(request("POST", "/api/projects", operator, { name: "x", repoKind: "local", repoPath: "/tmp" }), undefined as never)).status).toBe(403);
    const admin = await apiToken(team.id, "admin");
    const bad = await createProjectRoute(request("POST", "/api/projects", admin, { name: "x", repoKind: "local", repoPath: "relative/path" }), undefined as never);
    expect((await bad.json()).error).toMatchObject({ field: "repoPath" });
  });
});
