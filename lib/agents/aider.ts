import { parsePlainTextLine } from "@/lib/agents/plain-text";
import type { AgentAdapter } from "@/lib/agents/types";

// Flags from aider's options reference (aider/website/docs/config/options.md). The prompt is read
// from stdin through --message-file, so no prompt text is read as a flag and a long one does not
// hit the kernel's 128 KiB limit on one argument; --no-pretty and --no-stream give plain, whole
// lines instead of colour codes and redrawn partial output.
export const aiderAdapter: AgentAdapter = {
  name: "aider",
  build: ({ prompt, model, extraArgs = [] }) => ({
    command: "aider",
    args: ["--message-file=/dev/stdin", "--yes-always", "--no-pretty", "--no-stream", ...(model ? ["--model", model] : []), ...extraArgs],
    stdin: prompt,
  }),
  parseLine: parsePlainTextLine,
};
