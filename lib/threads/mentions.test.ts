import { describe, expect, it } from "vitest";
import { mentionedNames } from "@/lib/threads/mentions";

describe("mentionedNames", () => {
  it.each([
    ["@box-1: why did the build fail?", ["box-1"]],
    ["thanks @box-1.", ["box-1"]],
    ["(@gpu.box) and @worker-3f2a9c1d, then @gpu.box again", ["gpu.box", "worker-3f2a9c1d"]],
    ["mail ops@example.com", []],
    ["@@box", []],
    ["no mention here", []],
    ["@lead-1:", ["lead-1"]],
  ])("%j names %j", (text, names) => {
    expect(mentionedNames(text)).toEqual(names);
  });

  it("keeps at most twenty names", () => {
    expect(mentionedNames(Array.from({ length: 30 }, (_, i) => `@n${i}`).join(" "))).toHaveLength(20);
  });
});
