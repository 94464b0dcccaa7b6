import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { GET as listCampaigns, POST as postCampaign } from "@/app/api/projects/[id]/campaigns/route";
import { GET as getCampaign, POST as controlCampaign } from "@/app/api/campaigns/[id]/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const plan = { tasks: [{ id: "t1", description: "First" }, { id: "t2", description: "Second", dependencies: ["t1"] }] };

async function setUp() {
  const { team, project } = await createTeamWithProject({ loopEnabled: false });
  const token = await apiToken(team.id);
  const post = (body: unknown) => postCampaign(request("POST", `/api/projects/${project.id}/campaigns`, token, body), params(project.id));
  const control = (id: string, action: string, as = token) => controlCampaign(request("POST", `/api/campaigns/${id}`, as, { action }), params(id));
  return { team, project, token, post, control };
}

const nothingCreated = async (projectId: string) => {
  expect(await getDb().campaign.count({ where: { projectId } })).toBe(0);
  expect(await getDb().prompt.count({ where: { projectId } })).toBe(0);
};

describe("campaigns API", () => {
  it("creates a campaign in planning, or executing with a given plan whose tasks become prompts", async () => {
    const { project, token, post } = await setUp();
    const planning = await post({ goal: "# Faster builds\nCut the build time in half." });
    expect(planning.status).toBe(201);
    expect((await planning.json()).campaign).toMatchObject({ title: "Faster builds", phase: "planning", planVersion: 0, tasksTotal: 0 });
    const planned = await post({ goal: "Two steps", title: "Stepped", plan });
    expect((await planned.json()).campaign).toMatchObject({ title: "Stepped", phase: "executing", planVersion: 1, tasksTotal: 2 });
    const prompts = await getDb().prompt.findMany({ where: { projectId: project.id }, orderBy: { number: "asc" } });
    expect(prompts.map((p) => [p.number, p.taskId, p.dependencies, p.maxAttempts, p.origin])).toEqual([[1, "t1", [], 4, "campaign"], [2, "t2", [1], 4, "campaign"]]);
    const list = await (await listCampaigns(request("GET", `/api/projects/${project.id}/campaigns`, token), params(project.id))).json();
    expect(list.campaigns.map((c: { title: string }) => c.title)).toEqual(["Stepped", "Faster builds"]);
  });

  it.each([
    ["an empty goal", { goal: "   " }, "goal", "Goal is required"],
    ["a NUL in the goal", { goal: "a\u0000b" }, "goal", /^Goal must not contain NUL/],
    ["a dependency cycle", { goal: "g", plan: { tasks: [{ id: "a", description: "A", dependencies: ["b"] }, { id: "b", description: "B", dependencies: ["a"] }] } }, "plan", "Plan is not a valid plan: dependency cycle: a → b → a"],
    ["an unknown dependency", { goal: "g", plan: { tasks: [{ id: "a", description: "A", dependencies: ["zz"] }] } }, "plan", 'Plan is not a valid plan: task a: depends on unknown task "zz"'],
    ["a 10 MB plan", { goal: "g", plan: { tasks: [{ id: "a", description: "x".repeat(10 * 1024 * 1024) }] } }, "plan", "Plan must be at most 1048576 bytes"],
    ["an unknown field", { goal: "g", owner: "me" }, "owner", "Owner is not something this request accepts"],
  ])("refuses %s with the field named, creating nothing", async (_name, body, field, message) => {
    const { project, post } = await setUp();
    const res = await post(body);
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.field ?? Object.keys(error.fields ?? {})[0]).toBe(field);
    const text = error.fields?.[field] ?? error.message;
    if (typeof message === "string") expect(text).toBe(message);
    else expect(text).toMatch(message);
    await nothingCreated(project.id);
  });

  it("is scoped to the team: another team's campaign is 404 to read and to control; a viewer may not control", async () => {
    const mine = await setUp();
    const other = await setUp();
    const { campaign } = await (await mine.post({ goal: "Mine", plan })).json();
    const read = await getCampaign(request("GET", `/api/campaigns/${campaign.id}`, await apiToken(other.team.id)), params(campaign.id));
    expect(read.status).toBe(404);
    expect((await read.json()).error).toMatchObject({ code: "not_found", message: "campaign not found" });
    expect((await other.control(campaign.id, "cancel", other.token)).status).toBe(404);
    expect((await mine.control(campaign.id, "cancel", await apiToken(mine.team.id, "viewer"))).status).toBe(403);
    const create = await postCampaign(request("POST", `/api/projects/${mine.project.id}/campaigns`, other.token, { goal: "x" }), params(mine.project.id));
    expect(create.status).toBe(404);
    expect((await getDb().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).phase).toBe("executing");
    const view = await (await getCampaign(request("GET", `/api/campaigns/${campaign.id}`, mine.token), params(campaign.id))).json();
    expect(view.tasks.map((t: { taskId: string; status: string }) => [t.taskId, t.status])).toEqual([["t1", "pending"], ["t2", "pending"]]);
    expect(view.events.map((e: { kind: string }) => e.kind)).toEqual(["created", "plan"]);
  });

  it("pause holds the campaign's tasks out of the loop, start brings them back, re-plan and cancel close its waiting tasks", async () => {
    const { project, post, control } = await setUp();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    const { campaign } = await (await post({ goal: "Steps", plan })).json();
    expect((await control(campaign.id, "pause")).status).toBe(200);
    const paused = await runTick(project.id);
    expect(paused.skipped ? null : paused.decision.kind).toBe("all_done");
    expect(await getDb().run.count({ where: { projectId: project.id } })).toBe(0);

    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    const started = await (await control(campaign.id, "start")).json();
    expect(started.campaign.paused).toBe(false);
    const resumed = await runTick(project.id);
    expect(resumed.skipped ? null : resumed.decision).toMatchObject({ kind: "spawn_executor", promptNumber: 1 });

    const replanned = await (await control(campaign.id, "replan")).json();
    expect(replanned.campaign).toMatchObject({ phase: "planning", failureLog: "Re-plan requested by an API token" });
    expect(replanned.tasks.map((t: { taskId: string; status: string }) => [t.taskId, t.status])).toEqual([["t1", "in_progress"], ["t2", "cancelled"]]);
    expect((await control(campaign.id, "replan")).status).toBe(409);

    const cancelled = await (await control(campaign.id, "cancel")).json();
    expect(cancelled.campaign.phase).toBe("cancelled");
    const again = await control(campaign.id, "start");
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("campaign_closed");
    expect((await control(campaign.id, "explode")).status).toBe(400);
  });

  it("shows a long campaign's newest 500 events, oldest first: its latest state is never cut off", async () => {
    const { token, post } = await setUp();
    const { campaign } = await (await post({ goal: "Long", plan })).json();
    // After the campaign's own events (its plan), one second apart.
    const start = Date.now() + 60_000;
    await getDb().campaignEvent.createMany({
      data: Array.from({ length: 520 }, (_, i) => ({ campaignId: campaign.id, kind: "milestone", message: `event ${i}`, createdAt: new Date(start + i * 1000) })),
    });
    const view = await (await getCampaign(request("GET", `/api/campaigns/${campaign.id}`, token), params(campaign.id))).json();
    expect(view.events).toHaveLength(500);
    expect(view.events[0].message).toBe("event 20");
    expect(view.events.at(-1).message).toBe("event 519");
  });
});
