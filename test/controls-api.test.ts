import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getQueue } from "@/lib/queues";
import { GET as getLoop, POST as postLoop } from "@/app/api/projects/[id]/loop/route";
import { GET as listPrompts, POST as postPrompt } from "@/app/api/projects/[id]/prompts/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const loop = (id: string, token: string | undefined, body: unknown) => postLoop(request("POST", `/api/projects/${id}/loop`, token, body), params(id));

describe("autopilot controls over HTTP (seeds 000 and 003)", () => {
  it("starts, pauses, resumes and stops the loop, writing each event and nudging the tick", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(team.id);
    expect(await (await loop(project.id, token, { action: "start" })).json()).toEqual({ mode: "running" });
    expect(await (await loop(project.id, token, { action: "pause" })).json()).toEqual({ mode: "paused" });
    expect(await (await loop(project.id, token, { action: "resume" })).json()).toEqual({ mode: "running" });
    // A live run makes stop wait for it (stopping); without one it is stopped at once.
    await getDb().run.create({ data: { projectId: project.id, kind: "executor", adapter: "demo", status: "running" } });
    expect(await (await loop(project.id, token, { action: "stop" })).json()).toEqual({ mode: "stopping" });
    const types = (await getDb().activityEvent.findMany({ where: { projectId: project.id }, orderBy: { id: "asc" } })).map((a) => a.type);
    expect(types).toEqual(["started", "paused", "resumed", "stopped"]);
    const waiting = await getQueue("tick").getJobs(["waiting", "delayed", "prioritized"]);
    expect(waiting.some((j) => j.data.projectId === project.id)).toBe(true);
  });

  it("resets the planner backoff on a loop toggle and toggles parallel", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: true });
    await getDb().loopState.update({ where: { projectId: project.id }, data: { emergentSpawnCount: 3 } });
    const token = await apiToken(team.id);
    await loop(project.id, token, { action: "loop", enabled: false });
    expect((await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } })).emergentSpawnCount).toBe(0);
    expect(await (await loop(project.id, token, { action: "parallel", enabled: false })).json()).toEqual({ parallelEnabled: false });
    const state = await (await getLoop(request("GET", `/api/projects/${project.id}/loop`, token), params(project.id))).json();
    expect(state).toMatchObject({ mode: "stopped", parallelEnabled: false });
  });

  it("answers bad input with 400 naming the field and changes nothing", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(team.id);
    const bad = await loop(project.id, token, { action: "explode" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("action");
    const badJson = await postLoop(request("POST", `/api/projects/${project.id}/loop`, token, "{nope"), params(project.id));
    expect(badJson.status).toBe(400);
    const badBranch = await loop(project.id, token, { action: "branch", branch: "has space" });
    expect(badBranch.status).toBe(400);
    expect(await badBranch.json()).toEqual({ error: { code: "invalid", message: "Branch is not a valid branch name (git check-ref-format refuses it)", field: "branch" } });
    const conflict = await loop(project.id, token, { action: "resume" });
    expect(conflict.status).toBe(409);
    expect((await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } })).mode).toBe("stopped");
  });

  it("answers 401 without a token, 403 for a viewer, 404 for another team's project", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const other = await createTeamWithProject({ loopEnabled: false });
    expect((await loop(project.id, undefined, { action: "start" })).status).toBe(401);
    expect((await loop(project.id, "rm_api_forged", { action: "start" })).status).toBe(401);
    expect((await loop(project.id, await apiToken(team.id, "viewer"), { action: "start" })).status).toBe(403);
    expect((await loop(project.id, await apiToken(other.team.id, "owner"), { action: "start" })).status).toBe(404);
    expect((await loop(project.id, await apiToken(team.id, "operator", other.project.id), { action: "start" })).status).toBe(404);
    expect((await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } })).mode).toBe("stopped");
  });
});

describe("prompts over HTTP", () => {
  it("numbers new prompts, validates fields and nudges the loop", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(team.id);
    const post = (body: unknown) => postPrompt(request("POST", `/api/projects/${project.id}/prompts`, token, body), params(project.id));
    const a = await post({ title: "First", body: "do it", priority: 2 });
    expect(a.status).toBe(201);
    expect((await a.json()).prompt).toMatchObject({ number: 1, priority: 2, status: "pending", origin: "user" });
    expect((await (await post({ title: "Second", dependencies: [1] })).json()).prompt.number).toBe(2);
    const bad = await post({ title: "", priority: 9 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ field: "title", message: "Title is required" });
    const badPriority = await post({ title: "x", priority: 9 });
    expect((await badPriority.json()).error).toMatchObject({ field: "priority", message: "Priority must be a whole number from 1 to 4" });
    const list = await (await listPrompts(request("GET", `/api/projects/${project.id}/prompts`, token), params(project.id))).json();
    expect(list.prompts.map((p: { number: number }) => p.number)).toEqual([1, 2]);
  });
});
