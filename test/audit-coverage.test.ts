import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { PATCH as patchSettings } from "@/app/api/projects/[id]/settings/route";
import { POST as promptAction } from "@/app/api/prompts/[id]/actions/route";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";
import { tickAndRun } from "./helpers/run-once";

describe("the audit log records people, tokens and the system", () => {
  it("keeps who changed settings and prompts, with before and after, and what the system did to runs", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const admin = await apiToken(team.id, "admin");
    await patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, admin, { maxParallel: 5 }), params(project.id));
    const doomed = await addPrompt(project.id, { number: 2, title: "not wanted", body: "" });
    await promptAction(request("POST", `/api/prompts/${doomed.id}/actions`, admin, { action: "cancel" }), params(doomed.id));
    await addPrompt(project.id, { number: 1, title: "work", body: "```file w.txt\nw\n```\n" });
    await tickAndRun(project.id);

    const events = await getDb().auditEvent.findMany({ where: { teamId: team.id }, orderBy: { id: "asc" } });
    const byAction = (a: string) => events.find((e) => e.action === a);
    expect(byAction("settings.updated")).toMatchObject({ actorType: "token", before: { maxParallel: 2 }, after: { maxParallel: 5 } });
    expect(byAction("prompt.cancelled")).toMatchObject({ actorType: "token", targetId: doomed.id, after: { status: "cancelled" } });
    expect(byAction("run.succeeded")).toMatchObject({ actorType: "system", targetType: "run" });
    expect(byAction("merge.merged")).toMatchObject({ actorType: "system" });
  });
});
