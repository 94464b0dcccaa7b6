import { fileURLToPath } from "node:url";
import { parseClaudeStreamLine } from "@/lib/agents/claude-stream";
import type { AgentAdapter } from "@/lib/agents/types";

export const DEMO_AGENT_PATH = fileURLToPath(new URL("../../bin/demo-agent.mjs", import.meta.url));

/** Ringmaster's own deterministic agent (bin/demo-agent.mjs): runs anywhere node does, offline. */
export const demoAdapter: AgentAdapter = {
  name: "demo",
  build: ({ prompt, model, extraArgs = [] }) => ({
    command: process.execPath,
    args: [DEMO_AGENT_PATH, ...(model ? ["--model", model] : []), ...extraArgs],
    stdin: prompt,
  }),
  parseLine: (line) => parseClaudeStreamLine(line),
};
