import { parsePlainTextLine } from "@/lib/agents/plain-text";
import type { AgentAdapter } from "@/lib/agents/types";

// Flags from aider's options reference (aider/website/docs/config/options.md). `--message=`
// keeps a prompt that starts with a dash from being read as a flag; --no-pretty and
// --no-stream give plain, whole lines instead of colour codes and redrawn partial output.
export const aiderAdapter: AgentAdapter = {
  name: "aider",
  build: ({ prompt, model, extraArgs = [] }) => ({
    command: "aider",
    args: [`--message=${prompt}`, "--yes-always", "--no-pretty", "--no-stream", ...(model ? ["--model", model] : []), ...extraArgs],
  }),
  parseLine: parsePlainTextLine,
};
