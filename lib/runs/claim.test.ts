import { describe, expect, it } from "vitest";
import { chooseModel } from "@/lib/runs/claim";

const profile = { id: "p", adapter: "claude", model: "base", fallbackModel: "fallback" };

describe("model routing (seed 002)", () => {
  it("takes the prompt's domain route first, on any attempt", () => {
    expect(chooseModel(profile, { frontend: "ui-model" }, "frontend", 1)).toBe("ui-model");
    expect(chooseModel(profile, { frontend: "ui-model" }, "frontend", 3)).toBe("ui-model");
  });

  it("ignores an empty or non-text route, a missing domain and missing routing", () => {
    expect(chooseModel(profile, { frontend: "" }, "frontend", 1)).toBe("base");
    expect(chooseModel(profile, { frontend: 7 }, "frontend", 1)).toBe("base");
    expect(chooseModel(profile, { frontend: "ui-model" }, null, 1)).toBe("base");
    expect(chooseModel(profile, null, "frontend", 1)).toBe("base");
  });

  it("uses the fallback model from the second attempt on, when there is one", () => {
    expect(chooseModel(profile, {}, null, 1)).toBe("base");
    expect(chooseModel(profile, {}, null, 2)).toBe("fallback");
    expect(chooseModel({ ...profile, fallbackModel: null }, {}, null, 2)).toBe("base");
    expect(chooseModel({ ...profile, model: null, fallbackModel: null }, {}, null, 2)).toBeNull();
  });
});
