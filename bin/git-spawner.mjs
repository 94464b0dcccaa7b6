// A worker thread that starts git for lib/git/run.ts (see lib/git/spawn-thread.ts). Starting a
// process forks the whole worker, which blocks the thread that asks for tens of milliseconds in
// a big process; asked from here, the worker's event loop keeps serving ticks meanwhile.
import { spawn } from "node:child_process";
import { parentPort } from "node:worker_threads";

parentPort.on("message", ({ id, cwd, args, env }) => {
  const out = [];
  const err = [];
  let child;
  try {
    child = spawn("git", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    parentPort.postMessage({ id, error: e.message });
    return;
  }
  child.stdout.on("data", (c) => out.push(c));
  child.stderr.on("data", (c) => err.push(c));
  child.on("error", (e) => parentPort.postMessage({ id, error: e.message }));
  child.on("close", (code) => {
    parentPort.postMessage({ id, code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
  });
});
