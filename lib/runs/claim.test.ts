import { describe, expect, it } from "vitest";
import { chooseModel, modelTable } from "@/lib/runs/claim";

const profile = { id: "p", adapter: "claude", model: "base", fallbackModel: "fallback" };

describe("model routing (seed 002)", () => {
  it("takes the prompt's domain route first, and alternates it with the fallback on retries", () => {
    expect([1, 2, 3, 4].map((a) => chooseModel(profile, { frontend: "ui-model" }, "frontend", a))).toEqual(["ui-model", "fallback", "ui-model", "fallback"]);
  });

  it("falls back to the profile's model when the route already names the fallback", () => {
    expect([1, 2, 3].map((a) => chooseModel(profile, { ui: "fallback" }, "ui", a))).toEqual(["fallback", "base", "fallback"]);
  });

  it("ignores an empty or non-text route, a missing domain and missing routing", () => {
    expect(chooseModel(profile, { frontend: "" }, "frontend", 1)).toBe("base");
    expect(chooseModel(profile, { frontend: 7 }, "frontend", 1)).toBe("base");
    expect(chooseModel(profile, { frontend: "ui-model" }, null, 1)).toBe("base");
    expect(chooseModel(profile, null, "frontend", 1)).toBe("base");
  });

  it("alternates the fallback model and the first one across retries (get_fallback_model), when there is one", () => {
    expect([1, 2, 3, 4].map((a) => chooseModel(profile, {}, null, a))).toEqual(["base", "fallback", "base", "fallback"]);
    expect(chooseModel({ ...profile, fallbackModel: null }, {}, null, 2)).toBe("base");
    expect(chooseModel({ ...profile, model: null, fallbackModel: null }, {}, null, 2)).toBeNull();
  });
});

describe("the claim statement's model table", () => {
  it("lists, per routed domain, chooseModel's model for an even and an odd attempt, and the profile's own pair for every other domain", () => {
    expect(modelTable(profile, { frontend: "ui-model", ui: "fallback", empty: "", odd: 7 })).toEqual({
      routes: { frontend: ["fallback", "ui-model"], ui: ["base", "fallback"] },
      otherwise: ["fallback", "base"],
    });
  });

  it("leaves out a route that picks what the profile picks anyway, and takes no routing at all", () => {
    expect(modelTable(profile, { backend: "base" })).toEqual({ routes: {}, otherwise: ["fallback", "base"] });
    expect(modelTable({ ...profile, fallbackModel: null }, null)).toEqual({ routes: {}, otherwise: ["base", "base"] });
    expect(modelTable({ ...profile, model: null, fallbackModel: null }, undefined)).toEqual({ routes: {}, otherwise: [null, null] });
  });
});
