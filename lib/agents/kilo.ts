import { parseOpencodeLine } from "@/lib/agents/opencode";
import { permissionArgs } from "@/lib/agents/permission-modes";
import type { AgentAdapter } from "@/lib/agents/types";

// Flags checked against `kilo run --help` of @kilocode/cli 7.7.7, a fork of opencode: `run` reads
// the message from the piped stdin when none is given as an argument, `--format json` prints
// opencode's events (step_start, text, tool_use, step_finish, error), read by the opencode
// reader. Its config comes from KILO_CONFIG_CONTENT; the model is `provider/model`.
export const kiloAdapter: AgentAdapter = {
  name: "kilo",
  build: ({ prompt, model, extraArgs = [], permissionMode }) => ({
    command: "kilo",
    args: ["run", "--format", "json", ...permissionArgs("kilo", permissionMode, extraArgs), ...(model ? ["--model", model] : []), ...extraArgs],
    stdin: prompt,
  }),
  parseLine: (line) => parseOpencodeLine(line),
};
