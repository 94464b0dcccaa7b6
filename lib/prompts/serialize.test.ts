import { describe, expect, it } from "vitest";
import { parsePromptFile } from "@/lib/prompts/parse";
import type { PromptFile } from "@/lib/prompts/schema";
import { serializePromptFile } from "@/lib/prompts/serialize";

const base: PromptFile = {
  number: 3,
  title: "Add login page",
  status: "pending",
  priority: 2,
  dependencies: [1, 2],
  body: "# Task\n\nBuild it.\n",
};

describe("serializePromptFile", () => {
  it("writes frontmatter in a fixed field order, then a blank line and the body", () => {
    expect(serializePromptFile(base)).toBe(
      "---\nnumber: 3\ntitle: Add login page\nstatus: pending\npriority: 2\ndependencies: [1, 2]\n---\n\n# Task\n\nBuild it.\n",
    );
  });

  it("writes an empty dependency list and an empty body compactly", () => {
    expect(serializePromptFile({ ...base, dependencies: [], body: "" })).toBe(
      "---\nnumber: 3\ntitle: Add login page\nstatus: pending\npriority: 2\ndependencies: []\n---\n",
    );
  });

  it.each<[string, PromptFile]>([
    ["plain", base],
    ["title with YAML syntax", { ...base, title: 'Fix: "quotes" # and [brackets], {braces}' }],
    ["title that looks like a number", { ...base, title: "42" }],
    ["title that looks like a boolean", { ...base, title: "yes" }],
    ["long title", { ...base, title: "word ".repeat(40).trim() }],
    ["every status", { ...base, status: "cancelled", priority: 4, dependencies: [] }],
    ["body with frontmatter-like lines", { ...base, body: "Intro\n---\ntitle: fake\n---\n" }],
    ["empty body", { ...base, body: "" }],
    ["body without final newline", { ...base, body: "one line" }],
  ])("round-trips through parsePromptFile: %s", (_name, prompt) => {
    expect(parsePromptFile("03-x.md", serializePromptFile(prompt))).toEqual({ ok: true, prompt });
  });
});
