import { fileURLToPath } from "node:url";
import type { AgentAdapter, AgentCommand } from "@/lib/agents/types";

export const WATCHDOG_PATH = fileURLToPath(new URL("../../bin/watchdog.mjs", import.meta.url));

/**
 * The agent as it starts: directly when its launcher already dies with this process (bubblewrap's
 * --die-with-parent: the kernel kills bwrap when we die, even by SIGKILL, and with it every
 * process of the sandbox's pid namespace), else under bin/watchdog.mjs, a second Node.js process
 * that kills the agent's group once this worker is gone. Only unsandboxed runs pay that start.
 */
export function supervisedAdapter(adapter: AgentAdapter, launcher: { diesWithParent: boolean }, nodePath: string): AgentAdapter {
  return launcher.diesWithParent ? adapter : underWatchdog(adapter, nodePath);
}

/** Starts the agent under bin/watchdog.mjs, which kills it if this worker dies. */
export function underWatchdog(adapter: AgentAdapter, nodePath: string): AgentAdapter {
  const wrap = (cmd: AgentCommand): AgentCommand => ({
    command: nodePath,
    args: cmd.shell ? [WATCHDOG_PATH, "/bin/sh", "-c", cmd.command] : [WATCHDOG_PATH, cmd.command, ...cmd.args],
    stdin: cmd.stdin,
  });
  return { ...adapter, build: (ctx) => wrap(adapter.build(ctx)) };
}
