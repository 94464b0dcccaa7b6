// Run ceilings in a profile and in a project's settings: bad values are a 400 naming the field
// and change nothing; 0 is accepted (it refuses runs); an empty field is "no ceiling".
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { PATCH as patchSettings } from "@/app/api/projects/[id]/settings/route";
import { POST as postProfile } from "@/app/api/agent-profiles/route";
import { PATCH as patchProfile } from "@/app/api/agent-profiles/[id]/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

let f: Awaited<ReturnType<typeof createTeamWithProject>>;
let owner: string;
beforeAll(async () => {
  f = await createTeamWithProject();
  owner = await apiToken(f.team.id, "owner");
});

const BAD: Array<[string, unknown, string]> = [
  ["maxTokens", -1, "must be a whole number from 0 to 1000000000000 tokens"],
  ["maxTokens", 1e12 + 1, "must be a whole number from 0 to 1000000000000 tokens"],
  ["maxTokens", "1e400", "must be a whole number from 0"],
  ["maxTokens", "NaN", "must be a whole number from 0"],
  ["maxTokens", 2.5, "Max tokens per run must be a whole number"],
  ["maxCostUsd", -0.01, "must be from 0 to 1000000 USD"],
  ["maxCostUsd", "1e400", "must be a number"],
  ["maxCostUsd", "five", "must be a number"],
  ["maxCostUsd", true, "must be a number"],
  ["maxToolCalls", -3, "Max tool calls per run must be a whole number from 0 to 1000000"],
  ["maxToolCalls", "Infinity", "must be a whole number from 0 to 1000000"],
  ["maxTurns", -1, "Max turns per run must be a whole number from 0 to 1000000"],
  ["maxTurns", "1e400", "Max turns per run must be a whole number from 0 to 1000000"],
  ["maxRunDurationMs", -1, "Max run duration must be a whole number from 60000 to 604800000 ms"],
  ["maxRunDurationMs", "NaN", "Max run duration must be a whole number from 60000 to 604800000 ms"],
  ["maxRunDurationMs", "1e400", "Max run duration must be a whole number from 60000 to 604800000 ms"],
  ["maxRunDurationMs", 7 * 86_400_000 + 1, "Max run duration must be a whole number from 60000 to 604800000 ms"],
];

describe("a project's ceilings", () => {
  it.each(BAD)("refuses %s = %j with a field error, changing nothing", async (field, value, message) => {
    const before = await getDb().projectSettings.findUniqueOrThrow({ where: { projectId: f.project.id } });
    const res = await patchSettings(request("PATCH", `/api/projects/${f.project.id}/settings`, owner, { maxParallel: 7, [field]: value }), params(f.project.id));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ field, message: expect.stringContaining(message) });
    expect(await getDb().projectSettings.findUniqueOrThrow({ where: { projectId: f.project.id } })).toEqual(before);
  });

  it("refuses loop limits below 2", async () => {
    const res = await patchSettings(request("PATCH", `/api/projects/${f.project.id}/settings`, owner, { loopRepeatLimit: 1 }), params(f.project.id));
    expect(res.status).toBe(400);
    expect((await res.json()).error.field).toBe("loopRepeatLimit");
  });

  it("stores limits, 0 included, from numbers or a form's digits, and clears one with an empty field", async () => {
    const patch = (body: object) => patchSettings(request("PATCH", `/api/projects/${f.project.id}/settings`, owner, body), params(f.project.id));
    expect((await patch({ maxTokens: "1000000000000", maxCostUsd: "2.50", maxToolCalls: 0, loopRepeatLimit: 6 })).status).toBe(200);
    expect(await getDb().projectSettings.findUniqueOrThrow({ where: { projectId: f.project.id } }))
      .toMatchObject({ maxTokens: 1e12, maxCostUsd: 2.5, maxToolCalls: 0, loopRepeatLimit: 6, loopFailureLimit: 5 });
    expect((await patch({ maxToolCalls: "" })).status).toBe(200);
    expect(await getDb().projectSettings.findUniqueOrThrow({ where: { projectId: f.project.id } })).toMatchObject({ maxTokens: 1e12, maxToolCalls: null });
  });
});

describe("a profile's ceilings", () => {
  const profile = (extra: object) => ({ name: `p-${Math.random()}`, adapter: "claude", ...extra });

  it.each(BAD)("refuses %s = %j on create and on update, changing nothing", async (field, value, message) => {
    const count = await getDb().agentProfile.count({ where: { teamId: f.team.id } });
    const created = await postProfile(request("POST", "/api/agent-profiles", owner, profile({ [field]: value })), params("") as never);
    expect(created.status).toBe(400);
    expect((await created.json()).error).toMatchObject({ field, message: expect.stringContaining(message) });
    expect(await getDb().agentProfile.count({ where: { teamId: f.team.id } })).toBe(count);
    const before = await getDb().agentProfile.findUniqueOrThrow({ where: { id: f.profile.id } });
    const updated = await patchProfile(request("PATCH", `/api/agent-profiles/${f.profile.id}`, owner, { name: "demo", adapter: "demo", [field]: value }), params(f.profile.id));
    expect(updated.status).toBe(400);
    expect(await getDb().agentProfile.findUniqueOrThrow({ where: { id: f.profile.id } })).toEqual(before);
  });

  it("refuses a ceiling its adapter cannot measure, but accepts 0 there", async () => {
    const res = await postProfile(request("POST", "/api/agent-profiles", owner, profile({ adapter: "shell", commandTemplate: "x {prompt}", maxCostUsd: 3 })), params("") as never);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ field: "maxCostUsd", message: expect.stringContaining("the shell adapter reports no cost") });
    const zero = await postProfile(request("POST", "/api/agent-profiles", owner, profile({ adapter: "shell", commandTemplate: "x {prompt}", maxCostUsd: 0 })), params("") as never);
    expect(zero.status).toBe(201);
  });

  it("stores a profile's ceilings", async () => {
    const res = await postProfile(request("POST", "/api/agent-profiles", owner, profile({ maxTokens: 2_000_000, maxCostUsd: 5, maxToolCalls: 200, maxTurns: "40" })), params("") as never);
    expect(res.status).toBe(201);
    const { profile: { id } } = await res.json();
    expect(await getDb().agentProfile.findUniqueOrThrow({ where: { id } })).toMatchObject({ maxTokens: 2_000_000, maxCostUsd: 5, maxToolCalls: 200, maxTurns: 40 });
  });

  it("stores a profile's wall time, up to 7 days, and clears it with an empty field", async () => {
    const res = await postProfile(request("POST", "/api/agent-profiles", owner, profile({ maxRunDurationMs: "604800000" })), params("") as never);
    expect(res.status).toBe(201);
    const { profile: { id, name } } = await res.json();
    expect(await getDb().agentProfile.findUniqueOrThrow({ where: { id } })).toMatchObject({ maxRunDurationMs: 604_800_000 });
    const cleared = await patchProfile(request("PATCH", `/api/agent-profiles/${id}`, owner, { name, adapter: "claude", maxRunDurationMs: "" }), params(id));
    expect(cleared.status).toBe(200);
    expect(await getDb().agentProfile.findUniqueOrThrow({ where: { id } })).toMatchObject({ maxRunDurationMs: null });
  });
});
