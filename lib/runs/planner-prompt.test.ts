import { describe, expect, it } from "vitest";
import { plannerPrompt } from "@/lib/runs/planner-prompt";

describe("plannerPrompt", () => {
  it("asks a planner wired to MCP for create_prompt calls, never files", () => {
    expect(plannerPrompt("main", true)).toBe([
      "You are the planner of this repository. Study it and propose the next units of work.",
      "Add each with the `create_prompt` tool of the `ringmaster` MCP server",
      "(title, body, priority 1-4, dependencies: the numbers of prompts that must be done first).",
      "Do not write prompt files.",
    ].join("\n"));
  });

  it("asks any other planner for prompt files under its planning key", () => {
    expect(plannerPrompt("team-a", false)).toBe([
      "You are the planner of this repository. Study it and propose the next units of work.",
      "Write each as a prompt file .planning/team-a/prompts/NN-slug.md with YAML frontmatter",
      "(number, title, status: pending, priority 1-4, dependencies).",
    ].join("\n"));
  });
});
