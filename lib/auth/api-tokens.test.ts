import { describe, expect, it } from "vitest";
import { tokenInput } from "@/lib/auth/api-tokens";

const issues = (raw: unknown) => {
  const r = tokenInput.safeParse(raw);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")} ${i.message}`);
};

describe("API token input", () => {
  it("trims the name and project, defaults the role to operator, and treats blanks as not given", () => {
    expect(tokenInput.parse({ name: "  CI  " })).toEqual({ kind: "api", name: "CI", role: "operator" });
    expect(tokenInput.parse({ name: "CI", role: "viewer", projectId: " p1 ", expiresInDays: "30" })).toEqual({ kind: "api", name: "CI", role: "viewer", projectId: "p1", expiresInDays: 30 });
    expect(tokenInput.parse({ name: "CI", projectId: "   ", expiresInDays: "" })).toEqual({ kind: "api", name: "CI", role: "operator" });
    expect(tokenInput.parse({ kind: "runner", name: "gpu box" }).kind).toBe("runner");
    expect(tokenInput.parse({ name: "x".repeat(100), expiresInDays: 1 }).expiresInDays).toBe(1);
    expect(tokenInput.parse({ name: "CI", expiresInDays: 365 }).expiresInDays).toBe(365);
  });

  it("names each bad field", () => {
    expect(issues({ name: "   " })).toEqual(["name is required"]);
    expect(issues({ name: "x".repeat(101) })).toEqual(["name must be at most 100 characters"]);
    expect(issues({ name: "CI", kind: "root" })).toEqual(["kind must be api or runner"]);
    expect(issues({ name: "CI", role: "root" })).toEqual(["role must be one of owner, admin, operator, viewer"]);
    expect(issues({ name: "CI", expiresInDays: 0 })).toEqual(["expiresInDays must be a whole number from 1 to 365 days"]);
    expect(issues({ name: "CI", expiresInDays: 366 })).toEqual(["expiresInDays must be a whole number from 1 to 365 days"]);
    expect(issues({ name: "CI", expiresInDays: 1.5 })).toEqual(["expiresInDays must be a whole number from 1 to 365 days"]);
    expect(issues({ name: "CI", expiresInDays: "soon" })).toEqual(["expiresInDays must be a whole number from 1 to 365 days"]);
  });
});
