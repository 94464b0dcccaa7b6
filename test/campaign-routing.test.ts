import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { PATCH as patchSettings } from "@/app/api/projects/[id]/settings/route";
import { apiToken, params, request } from "./helpers/api";
import { drive, setUp, task } from "./helpers/campaigns";

// Seed 002's get_fallback_model for a task whose model came from the project's domain routing:
// the retries alternate between the routed model and the profile's fallback, not the profile's model.
describe("campaign model routing", () => {
  it("a ui task runs on the model the settings' routing table names, then alternates with the fallback through its 4 attempts", async () => {
    const failing = task("ui1", { domain: "ui", stepHints: ["print ui-broke\nexit 3"] });
    const { project, team, campaign } = await setUp({ tasks: [task("d1", { domain: "data" }), failing] });
    const token = await apiToken(team.id, "admin");
    const save = (modelRouting: unknown) => patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, token, { modelRouting }), params(project.id));
    // The table is a per-project setting: a bad row is refused with the field named, and nothing is saved.
    const refused = await save({ "UI Layer": "ui-model" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fields).toEqual({ "modelRouting.UI Layer": expect.stringMatching(/^Model routing/) });
    expect((await getDb().projectSettings.findUniqueOrThrow({ where: { projectId: project.id } })).modelRouting).toEqual({});
    expect((await save({ ui: "ui-model" })).status).toBe(200);

    await drive(project.id, campaign.id, (c) => c.phase === "planning" && c.planVersion === 1);
    const prompts = await getDb().prompt.findMany({ where: { campaignId: campaign.id }, orderBy: { number: "asc" }, include: { runs: { orderBy: { attempt: "asc" } } } });
    expect(prompts.map((p) => [p.taskId, p.domain, p.status, p.runs.map((r) => r.model)])).toEqual([
      ["d1", "data", "done", ["model-a"]],
      ["ui1", "ui", "failed", ["ui-model", "model-b", "ui-model", "model-b"]],
    ]);
  });
});
