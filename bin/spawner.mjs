// A small process that starts commands for a worker (lib/spawner.ts): git, the sandbox's share
// of a repository. Starting a process forks the one that asks, at a cost that grows with the
// memory it maps: from a worker (~250 MB) a fork took ~10 ms of a core, from this process ~1 ms.
// It is started with an empty environment of its own; each command gets the one it is sent.
import { spawn } from "node:child_process";

const MAX_OUTPUT = 256 * 1024 * 1024;

process.on("message", ({ id, command, args, cwd, env }) => {
  const out = [];
  const err = [];
  let size = 0;
  let child;
  try {
    child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    process.send({ id, error: e.message });
    return;
  }
  let answered = false;
  const answer = (msg) => {
    if (answered) return;
    answered = true;
    process.send({ id, ...msg });
  };
  const collect = (into) => (chunk) => {
    size += chunk.length;
    // A command that writes without end is stopped, as execFile's maxBuffer would.
    if (size > MAX_OUTPUT) child.kill("SIGKILL");
    else into.push(chunk);
  };
  child.stdout.on("data", collect(out));
  child.stderr.on("data", collect(err));
  child.on("error", (e) => answer({ error: e.message }));
  child.on("close", (code, signal) => {
    answer({ code, signal, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
  });
});
// The worker that asks is gone: so is this process.
process.on("disconnect", () => process.exit(0));
