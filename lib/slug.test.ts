import { describe, expect, it } from "vitest";
import { slugify } from "@/lib/slug";

describe("slugify", () => {
  it.each([
    ["Add login page", "add-login-page"],
    ["  Fix: the **bug** (again)!  ", "fix-the-bug-again"],
    ["Café résumé naïve", "cafe-resume-naive"],
    ["snake_case and CamelCase", "snake-case-and-camelcase"],
    ["v2.0 release", "v2-0-release"],
    ["日本語", ""],
    ["", ""],
  ])("%j → %j", (text, expected) => {
    expect(slugify(text)).toBe(expected);
  });

  it("cuts at 50 characters without leaving a trailing dash", () => {
    const slug = slugify(`${"a".repeat(49)} bbbb`);
    expect(slug).toBe("a".repeat(49));
    expect(slugify("x".repeat(80))).toBe("x".repeat(50));
  });
});
