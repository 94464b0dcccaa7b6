import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { drive, setUp, task } from "./helpers/campaigns";

// Seed 002's get_fallback_model for a task whose model came from the project's domain routing:
// the retries alternate between the routed model and the profile's fallback, not the profile's model.
describe("campaign model routing", () => {
  it("a ui task runs on the routed model, then alternates with the fallback through its 4 attempts", async () => {
    const failing = task("ui1", { domain: "ui", stepHints: ["print ui-broke\nexit 3"] });
    const { project, campaign } = await setUp({ tasks: [task("d1", { domain: "data" }), failing] });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { modelRouting: { ui: "ui-model" } } });
    await drive(project.id, campaign.id, (c) => c.phase === "planning" && c.planVersion === 1);
    const prompts = await getDb().prompt.findMany({ where: { campaignId: campaign.id }, orderBy: { number: "asc" }, include: { runs: { orderBy: { attempt: "asc" } } } });
    expect(prompts.map((p) => [p.taskId, p.domain, p.status, p.runs.map((r) => r.model)])).toEqual([
      ["d1", "data", "done", ["model-a"]],
      ["ui1", "ui", "failed", ["ui-model", "model-b", "ui-model", "model-b"]],
    ]);
  });
});
