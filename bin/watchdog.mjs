#!/usr/bin/env node
// Runs an agent command and dies with its supervisor. The worker starts this as the
// leader of a new process group; if the worker is killed (even with SIGKILL) this
// process is re-parented, notices, and kills its whole group, so no orphaned agent
// keeps editing a worktree whose run was already handed to another worker.
import { spawn } from "node:child_process";
import { constants } from "node:os";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: watchdog.mjs <command> [args...]");
  process.exit(2);
}
const parent = process.ppid;
const child = spawn(command, args, { stdio: "inherit" });

const killGroup = () => {
  try { process.kill(-process.pid, "SIGKILL"); } catch { child.kill("SIGKILL"); process.exit(137); }
};
const timer = setInterval(() => { if (process.ppid !== parent) killGroup(); }, 250);

for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(sig, () => child.kill(sig));
child.on("error", (err) => { console.error(`cannot start ${command}: ${err.message}`); process.exit(127); });
child.on("exit", (code, signal) => {
  clearInterval(timer);
  process.exit(signal ? 128 + (constants.signals[signal] ?? 1) : (code ?? 1));
});
