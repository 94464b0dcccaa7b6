import { describe, expect, it } from "vitest";
import { MAX_PLAN_BYTES, orderTasks, parsePlan } from "@/lib/campaigns/plan";

const task = (id: string, dependencies: string[] = []) => ({ id, description: `Do ${id}`, dependencies });
const plan = (...tasks: object[]) => JSON.stringify({ tasks });

describe("the architect's plan (seed 002)", () => {
  it("accepts a valid plan, as bare JSON or the last json block of a prose answer, with defaults filled in", () => {
    const bare = parsePlan(plan(task("t1"), { ...task("t2", ["t1"]), files: ["src/a.ts"], stepHints: ["edit it"], domain: "ui" }));
    expect(bare).toEqual({ ok: true, plan: { tasks: [
      { id: "t1", description: "Do t1", files: [], stepHints: [], entryCriteria: [], exitCriteria: [], dependencies: [] },
      { id: "t2", description: "Do t2", files: ["src/a.ts"], stepHints: ["edit it"], entryCriteria: [], exitCriteria: [], dependencies: ["t1"], domain: "ui" },
    ] } });
    const prose = parsePlan(`Here it is:\n\`\`\`json\n${plan(task("only"))}\n\`\`\`\nGood luck.`);
    expect(prose.ok && prose.plan.tasks.map((t) => t.id)).toEqual(["only"]);
  });

  it.each([
    ["bad JSON", "{ tasks: [", /^the plan is not valid JSON: /],
    ["no tasks", plan(), /^tasks: needs at least one task$/],
    ["a task without description", JSON.stringify({ tasks: [{ id: "t1" }] }), /^tasks\.0\.description: /],
    ["a bad id", plan(task("has space")), /^tasks\.0\.id: must be 1-40 letters/],
    ["a path outside the repository", plan({ ...task("t1"), files: ["../etc/passwd"] }), /^tasks\.0\.files\.0: must be a path inside the repository$/],
    ["an unknown dependency", plan(task("t1", ["t9"])), /^task t1: depends on unknown task "t9"$/],
    ["a duplicate id", plan(task("t1"), task("t1")), /^tasks: the id "t1" is used twice$/],
    ["a self-dependency", plan(task("t1", ["t1"])), /^task t1: depends on itself$/],
    ["a dependency cycle", plan(task("a", ["c"]), task("b", ["a"]), task("c", ["b"])), /^dependency cycle: a → c → b → a$/],
  ])("refuses %s, naming the problem", (_name, answer, error) => {
    const result = parsePlan(answer);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]).toMatch(error);
  });

  it("refuses a plan over 1 MB before parsing it", () => {
    const big = plan({ ...task("t1"), description: "x".repeat(MAX_PLAN_BYTES) });
    expect(parsePlan(big)).toEqual({ ok: false, errors: [`the plan is larger than ${MAX_PLAN_BYTES} bytes`] });
  });

  it("orders tasks after their dependencies", () => {
    const parsed = parsePlan(plan(task("c", ["b"]), task("a"), task("b", ["a"])));
    expect(parsed.ok && orderTasks(parsed.plan.tasks).map((t) => t.id)).toEqual(["a", "b", "c"]);
  });
});
