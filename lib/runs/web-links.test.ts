import { describe, expect, it } from "vitest";
import { webLinks } from "@/lib/runs/web-links";

describe("webLinks", () => {
  it("links the branch and commit under the clone URL's web address", () => {
    expect(webLinks("https://github.com/acme/app.git", "ringmaster/1-a b", "a".repeat(40))).toEqual({
      branch: "https://github.com/acme/app/tree/ringmaster/1-a%20b",
      commit: `https://github.com/acme/app/commit/${"a".repeat(40)}`,
    });
    expect(webLinks("https://github.example.com/acme/app.git", null, null)).toEqual({ branch: null, commit: null });
  });

  it("gives none for a clone URL that is no web address", () => {
    expect(webLinks("/srv/remotes/acme/app.git", "b", "c")).toBeNull();
    expect(webLinks("git@github.com:acme/app.git", "b", "c")).toBeNull();
  });
});
