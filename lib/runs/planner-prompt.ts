import { MCP_SERVER_NAME } from "@/lib/agents/mcp-config";

/**
 * The planner adds prompts with the MCP `create_prompt` tool where its CLI is wired to the
 * endpoint; elsewhere it writes prompt files, which the sync reads after the run is merged.
 */
export function plannerPrompt(planningKey: string, mcp: boolean): string {
  const intro = "You are the planner of this repository. Study it and propose the next units of work.";
  if (mcp) {
    return [
      intro,
      `Add each with the \`create_prompt\` tool of the \`${MCP_SERVER_NAME}\` MCP server`,
      "(title, body, priority 1-4, dependencies: the numbers of prompts that must be done first).",
      "Do not write prompt files.",
    ].join("\n");
  }
  return [
    intro,
    `Write each as a prompt file .planning/${planningKey}/prompts/NN-slug.md with YAML frontmatter`,
    "(number, title, status: pending, priority 1-4, dependencies).",
  ].join("\n");
}
