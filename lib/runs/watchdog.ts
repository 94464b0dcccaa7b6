import { fileURLToPath } from "node:url";
import type { AgentAdapter, AgentCommand } from "@/lib/agents/types";

export const WATCHDOG_PATH = fileURLToPath(new URL("../../bin/watchdog.mjs", import.meta.url));

/** Starts the agent under bin/watchdog.mjs, which kills it if this worker dies. */
export function underWatchdog(adapter: AgentAdapter, nodePath: string): AgentAdapter {
  const wrap = (cmd: AgentCommand): AgentCommand => ({
    command: nodePath,
    args: cmd.shell ? [WATCHDOG_PATH, "/bin/sh", "-c", cmd.command] : [WATCHDOG_PATH, cmd.command, ...cmd.args],
    stdin: cmd.stdin,
  });
  return { ...adapter, build: (ctx) => wrap(adapter.build(ctx)) };
}
