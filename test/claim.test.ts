import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { claimPromptForRun } from "@/lib/runs/claim";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";

const limits = { maxExecutors: 10, cooldownMs: 0 };

describe("claiming a prompt (invariant 1)", () => {
  it("lets exactly one of many concurrent claims win and creates exactly one run", async () => {
    const { project, profile } = await createTeamWithProject({ loopEnabled: false });
    const prompt = await addPrompt(project.id, { number: 1, title: "raced", body: "" });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => claimPromptForRun({ projectId: project.id, promptId: prompt.id, profile, routing: {}, now: new Date(), limits })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await getDb().run.count({ where: { promptId: prompt.id } })).toBe(1);
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("in_progress");
  });

  it("never exceeds the parallel limit or the cooldown, even when claims of different prompts race (invariant 2)", async () => {
    const { project, profile } = await createTeamWithProject({ loopEnabled: false });
    const prompts = await Promise.all([1, 2, 3, 4, 5].map((n) => addPrompt(project.id, { number: n, title: `p${n}`, body: "" })));
    const now = new Date();
    const won = await Promise.all(prompts.map((p) => claimPromptForRun({ projectId: project.id, promptId: p.id, profile, routing: {}, now, limits: { maxExecutors: 2, cooldownMs: 0 } })));
    expect(won.filter(Boolean)).toHaveLength(2);
    const cooled = await claimPromptForRun({ projectId: project.id, promptId: prompts[4].id, profile, routing: {}, now: new Date(now.getTime() + 5_000), limits: { maxExecutors: 10, cooldownMs: 10_000 } });
    expect(cooled).toBeNull();
    expect(await getDb().run.count({ where: { projectId: project.id } })).toBe(2);
  });

  it("routes the model by domain, and to the fallback model on a retry (seed 002)", async () => {
    const { project, profile } = await createTeamWithProject({ loopEnabled: false });
    const routed = { ...profile, model: "base", fallbackModel: "fallback" };
    const p1 = await getDb().prompt.create({ data: { projectId: project.id, planningKey: "main", number: 1, title: "ui", body: "", domain: "frontend" } });
    const p2 = await getDb().prompt.create({ data: { projectId: project.id, planningKey: "main", number: 2, title: "retry", body: "", attempts: 1 } });
    const p3 = await getDb().prompt.create({ data: { projectId: project.id, planningKey: "main", number: 3, title: "ui retry", body: "", domain: "frontend", attempts: 1 } });
    const p4 = await getDb().prompt.create({ data: { projectId: project.id, planningKey: "main", number: 4, title: "docs", body: "", domain: "docs", attempts: 2 } });
    const claim = (promptId: string) => claimPromptForRun({ projectId: project.id, promptId, profile: routed, routing: { frontend: "ui-model" }, now: new Date(), limits });
    const runs = [(await claim(p1.id))!.run, (await claim(p2.id))!.run, (await claim(p3.id))!.run, (await claim(p4.id))!.run];
    expect(runs.map((r) => [r.attempt, r.model])).toEqual([[1, "ui-model"], [2, "fallback"], [2, "fallback"], [3, "base"]]);
  });
});
