// A small process that starts commands for a worker (lib/spawner.ts): git, the sandbox's share
// of a repository, and the agents themselves. Starting a process forks the one that asks, at a
// cost that grows with the memory it maps: from a worker (~250 MB) a fork took ~10 ms of a core,
// from this process ~1 ms. It is started with an empty environment of its own; each command gets
// the one it is sent.
import { spawn } from "node:child_process";

// As lib/spawner.ts's limit for a short command's output.
const MAX_OUTPUT = 256 * 1024 * 1024;
const started = new Map();

process.on("message", (msg) => {
  if (msg.kind === "start") start(msg);
  else if (msg.kind === "took") took(msg);
  else run(msg);
});

/** A short command: its exit and whole output, in one answer. */
function run({ id, command, args, cwd, env }) {
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
}

/**
 * An agent: started as the leader of its own process group, its stdin written and closed, then
 * told as it goes: spawned (its pid), its output, its exit, and its close (exit, and its output
 * ended), as a ChildProcess tells them.
 */
function start({ id, command, args, cwd, env, shell, stdin, window }) {
  let child;
  try {
    child = spawn(command, args, { cwd, env, shell, detached: true, stdio: "pipe" });
  } catch (e) {
    process.send({ id, error: e.message });
    return;
  }
  if (child.pid === undefined) {
    child.once("error", (e) => process.send({ id, error: e.message }));
    return;
  }
  // Its output is relayed as it comes; past `window` not yet taken by the worker, its pipes are
  // read no further (the agent then blocks on a full pipe, as it would writing to the worker
  // directly) until the worker has taken half of it.
  const relay = { child, inFlight: 0, window };
  started.set(id, relay);
  process.send({ id, type: "spawned", pid: child.pid });
  // An agent may exit without reading its prompt; the EPIPE that follows is not a failure.
  child.stdin.on("error", () => {});
  child.stdin.end(stdin);
  for (const stream of ["stdout", "stderr"]) {
    child[stream].on("data", (data) => {
      relay.inFlight += data.length;
      if (relay.inFlight > window) { child.stdout.pause(); child.stderr.pause(); }
      process.send({ id, type: "data", stream, data });
    });
  }
  child.once("exit", (code, signal) => process.send({ id, type: "exit", code, signal }));
  child.once("close", (code, signal) => {
    started.delete(id);
    process.send({ id, type: "close", code, signal });
  });
}

/** The worker took `bytes` of an agent's output: reading goes on once it is behind. */
function took({ id, bytes }) {
  const relay = started.get(id);
  if (!relay) return;
  relay.inFlight -= bytes;
  if (relay.inFlight <= relay.window / 2) { relay.child.stdout.resume(); relay.child.stderr.resume(); }
}

// The worker that asks is gone: so is this process (its sandboxed agents die with it).
process.on("disconnect", () => process.exit(0));
