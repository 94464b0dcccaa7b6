import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { PATCH as patchSettings } from "@/app/api/projects/[id]/settings/route";
import { POST as override } from "@/app/api/projects/[id]/budget-override/route";
import { GET as getTeamBudget, PATCH as patchTeamBudget } from "@/app/api/team/budget/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const noParams = { params: Promise.resolve({}) };
const settingsOf = (projectId: string) => getDb().projectSettings.findUniqueOrThrow({ where: { projectId } });

describe("budget settings through the API", () => {
  it.each([
    ["dailyBudgetUsd", -1, "Daily budget must be from 0 to 1000000 USD"],
    ["dailyBudgetUsd", "abc", "Daily budget must be a number"],
    ["monthlyBudgetUsd", "1e400", "Monthly budget must be a number"],
    ["monthlyBudgetUsd", "NaN", "Monthly budget must be a number"],
    ["dailyBudgetUsd", 1e13, "Daily budget must be from 0 to 1000000 USD"],
    ["budgetStopsRuns", "yes", null],
  ])("refuses %s = %j with a field error and changes nothing", async (field, value, message) => {
    const { project, team } = await createTeamWithProject();
    const owner = await apiToken(team.id, "owner");
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { dailyBudgetUsd: 5 } });
    const before = await settingsOf(project.id);
    const res = await patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, owner, { dailyBudgetUsd: 7, [field]: value }), params(project.id));
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.field).toBe(field);
    if (message) expect(error.message).toBe(message);
    expect(await settingsOf(project.id)).toEqual(before);
  });

  it("takes 0 (runs refused) and empty (no budget) from an owner, and refuses an admin", async () => {
    const { project, team } = await createTeamWithProject();
    const owner = await apiToken(team.id, "owner");
    const admin = await apiToken(team.id, "admin");
    const denied = await patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, admin, { dailyBudgetUsd: 100 }), params(project.id));
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.message).toBe("requires the owner role to change dailyBudgetUsd");
    // The settings form sends every field back: unchanged budgets do not stop an admin's save.
    const same = await patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, admin, { dailyBudgetUsd: "", budgetStopsRuns: false, maxParallel: 4 }), params(project.id));
    expect(same.status).toBe(200);
    expect((await settingsOf(project.id)).dailyBudgetUsd).toBeNull();
    const ok = await patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, owner, { dailyBudgetUsd: "0", monthlyBudgetUsd: "12.50", budgetStopsRuns: true }), params(project.id));
    expect(ok.status).toBe(200);
    expect(await settingsOf(project.id)).toMatchObject({ dailyBudgetUsd: 0, monthlyBudgetUsd: 12.5, budgetStopsRuns: true });
    await patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, owner, { dailyBudgetUsd: "" }), params(project.id));
    expect((await settingsOf(project.id)).dailyBudgetUsd).toBeNull();
    const audits = await getDb().auditEvent.count({ where: { teamId: team.id, action: "settings.updated" } });
    expect(audits).toBe(3);
  });

  it("sets the team's budgets for an owner only, with field errors for bad values", async () => {
    const { team } = await createTeamWithProject();
    const owner = await apiToken(team.id, "owner");
    const admin = await apiToken(team.id, "admin");
    expect((await patchTeamBudget(request("PATCH", "/api/team/budget", admin, { dailyBudgetUsd: 3 }), noParams)).status).toBe(403);
    const bad = await patchTeamBudget(request("PATCH", "/api/team/budget", owner, { dailyBudgetUsd: 3, monthlyBudgetUsd: "1e400" }), noParams);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("monthlyBudgetUsd");
    expect(await (await getTeamBudget(request("GET", "/api/team/budget", admin), noParams)).json()).toEqual({ budget: { dailyBudgetUsd: null, monthlyBudgetUsd: null } });
    const ok = await patchTeamBudget(request("PATCH", "/api/team/budget", owner, { dailyBudgetUsd: 3, monthlyBudgetUsd: 50 }), noParams);
    expect(await ok.json()).toEqual({ budget: { dailyBudgetUsd: 3, monthlyBudgetUsd: 50 } });
    expect(await getDb().auditEvent.count({ where: { teamId: team.id, action: "budget.team" } })).toBe(1);
  });

  it("lets an owner override a budget for the rest of the period, once, audited; others get 403 or 404", async () => {
    const { project, team } = await createTeamWithProject();
    const other = await createTeamWithProject();
    const owner = await apiToken(team.id, "owner");
    const admin = await apiToken(team.id, "admin");
    const path = `/api/projects/${project.id}/budget-override`;
    expect((await override(request("POST", path, admin, { scope: "project", period: "day" }), params(project.id))).status).toBe(403);
    expect((await override(request("POST", path, await apiToken(other.team.id, "owner"), { scope: "project", period: "day" }), params(project.id))).status).toBe(404);
    const bad = await override(request("POST", path, owner, { scope: "project", period: "week" }), params(project.id));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("period");
    expect(await (await override(request("POST", path, owner, { scope: "team", period: "month" }), params(project.id))).json()).toEqual({ created: true });
    expect(await (await override(request("POST", path, owner, { scope: "team", period: "month" }), params(project.id))).json()).toEqual({ created: false });
    const audits = await getDb().auditEvent.findMany({ where: { teamId: team.id, action: "budget.override" } });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorType: "token", targetType: "team", targetId: team.id });
    expect(await getDb().budgetEvent.count({ where: { teamId: team.id, kind: "override" } })).toBe(1);
  });
});
