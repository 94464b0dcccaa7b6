import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdir, mkdtemp, readlink, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOLDER_READY, networkHolderArgs } from "@/lib/sandbox/bwrap";
import type { SandboxHost } from "@/lib/sandbox/host";
import { getLogger } from "@/lib/log";

/**
 * A sandbox's network namespace, made before the run that uses it, with its bridges to the egress
 * proxy's and the MCP gateway's sockets already listening: a run's agent joins it (`nsenter`), so
 * its start does not wait for socat to start and listen (about 10 ms a bridge here, on the path of
 * every run's start). One holder serves one sandbox and goes with it; never two runs.
 */
export type NetworkHolder = {
  /** Where the proxy's and the gateway's sockets go (egress.sock, mcp.sock): the bridges connect there. */
  egressDir: string;
  /** The namespace as `readlink /proc/self/ns/net` names it inside, e.g. net:[4026532179]. */
  netns: string;
  /** The path `nsenter --net=` takes: the bridges' pid namespace's first process's. */
  nsPath: string;
  /** Whether its bridges still run. */
  alive: () => boolean;
  /** Stops the bridges and removes the sockets' folder. */
  close: () => Promise<void>;
};

const READY_TIMEOUT_MS = 10_000;

/**
 * Starts a holder whose sockets' folder is `egressDir` (made here; a new one in the tmp folder by
 * default); fails (leaving nothing running) when its bridges do not come up.
 */
export async function startNetworkHolder(host: SandboxHost, at?: string): Promise<NetworkHolder> {
  const egressDir = at ?? await mkdtemp(join(tmpdir(), "ringmaster-net-"));
  if (at) await mkdir(at);
  // The bridges run as the sandbox user and must pass through it to the sockets.
  await chmod(egressDir, 0o755);
  // bwrap writes the pids and namespaces it made, as JSON, to fd 3 (--info-fd).
  const child = spawn(host.bwrap, ["--info-fd", "3", ...networkHolderArgs(egressDir, host.user, { proxy: true, mcp: true })], {
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  // Nobody waits on an idle holder: it keeps no worker or test process alive (the wait for it to be ready does).
  child.unref();
  for (const pipe of child.stdio) (pipe as { unref?: () => void } | null)?.unref?.();
  let made: { pid: number; netns: string } | null = null;
  const running = () => child.exitCode === null && child.signalCode === null;
  const close = async () => {
    if (running()) {
      const exited = new Promise((done) => child.once("exit", done));
      // The namespace's first process first (all of the namespace goes with it), so bwrap reaps it
      // and exits; killed first, bwrap would leave it to whoever adopts orphans. Only while it is
      // still the holder's (a pid is reused once reaped).
      if (made && (await readlink(`/proc/${made.pid}/ns/net`).catch(() => null)) === made.netns) {
        try {
          process.kill(made.pid, "SIGKILL");
        } catch { /* gone already */ }
      }
      const late = setTimeout(() => child.kill("SIGKILL"), 1_000);
      await exited;
      clearTimeout(late);
    }
    await rm(egressDir, { recursive: true, force: true });
  };
  try {
    made = await holderReady(child);
    const { pid, netns } = made;
    const nsPath = `/proc/${pid}/ns/net`;
    // The namespace must be a new one: never the worker's own.
    if (netns === (await readlink("/proc/self/ns/net"))) throw new Error("the holder's network namespace is the worker's own");
    return { egressDir, netns, nsPath, alive: running, close };
  } catch (err) {
    await close();
    throw err;
  }
}

function holderReady(child: ChildProcess): Promise<{ pid: number; netns: string }> {
  return new Promise((resolve, reject) => {
    let info = "";
    let out = "";
    let err = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox's network could not be made: ${why}${err.trim() ? ` (${err.trim().split("\n").at(-1)})` : ""}`));
    };
    const timer = setTimeout(() => fail(`its bridges did not listen within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    // The bridges' word (stdout) and bwrap's info (fd 3) come on two pipes, read in either order:
    // ready once both are in (under load the info was read after the word, and taken as empty).
    const infoPipe = child.stdio[3] as NodeJS.ReadableStream;
    let infoEnded = false;
    const settle = () => {
      if (!out.includes(HOLDER_READY)) return;
      let parsed: { "child-pid"?: number; "net-namespace"?: number } | null = null;
      try {
        parsed = JSON.parse(info);
      } catch {
        // Not all of it yet; bwrap closes the pipe once it has written it all.
        if (!infoEnded) return;
      }
      clearTimeout(timer);
      if (!parsed || !Number.isInteger(parsed["child-pid"]) || !Number.isInteger(parsed["net-namespace"])) {
        reject(new Error(`the sandbox's network could not be made: bwrap's --info-fd said ${JSON.stringify(info.slice(0, 200))}`));
        return;
      }
      resolve({ pid: parsed["child-pid"]!, netns: `net:[${parsed["net-namespace"]}]` });
    };
    infoPipe.on("data", (c) => { info += c; settle(); });
    infoPipe.once("end", () => { infoEnded = true; settle(); });
    child.stderr!.on("data", (c) => { err += c; });
    child.stdout!.on("data", (c) => { out += c; settle(); });
    child.once("error", (e) => fail(e.message));
    child.once("exit", (code, signal) => fail(`its bridges exited (${signal ?? code})`));
  });
}

// A worker keeps `spareCount` ready holders, made off every run's path (keepSpareHolders, refillSpareHolder).
let spareHost: SandboxHost | null = null;
let spareCount = 1;
const spares: Promise<NetworkHolder | null>[] = [];
const sameHost = (a: SandboxHost, b: SandboxHost) => a.bwrap === b.bwrap && a.user?.uid === b.user?.uid && a.user?.gid === b.user?.gid;

/**
 * From now on this process keeps `count` ready holders for `host` (a worker, as many as a burst of
 * runs starts on it at once; elsewhere each sandbox makes its own), the first made now, where
 * sandboxes use holders (we are root and have nsenter).
 */
export function keepSpareHolders(host: SandboxHost | null, count = 1): void {
  spareHost = host?.user && host.nsenter ? host : null;
  spareCount = count;
  refillSpareHolder();
}

/**
 * Makes the spares taken since: called when a run's agent has started, so making them (three
 * process starts each) does not compete with a run's start for the machine's cores.
 */
export function refillSpareHolder(): void {
  while (spareHost && spares.length < spareCount) {
    spares.push(startNetworkHolder(spareHost).catch((err: Error) => {
      // The next sandbox makes its own, and fails with the same reason if it cannot.
      getLogger("sandbox").warn({ err: err.message }, "no sandbox network made ahead");
      return null;
    }));
  }
}

/**
 * A holder for one sandbox, its sockets' folder at `egressDir` (which must not exist): the ready
 * spare, moved there, when there is one; else one made now.
 */
export async function takeNetworkHolder(host: SandboxHost, egressDir: string): Promise<NetworkHolder> {
  const held = spareHost && sameHost(spareHost, host) ? await spares.shift() : null;
  // The bridges' mount follows the folder, not its name: moved, it is still theirs.
  if (held?.alive() && (await rename(held.egressDir, egressDir).then(() => true, () => false))) {
    return { ...held, egressDir, close: async () => { await held.close(); await rm(egressDir, { recursive: true, force: true }); } };
  }
  await held?.close();
  return startNetworkHolder(host, egressDir);
}

/** Stops this process's spare holders and makes no more (a worker's shutdown; they die with the worker anyway). */
export async function closeSpareHolders(): Promise<void> {
  spareHost = null;
  const held = await Promise.all(spares.splice(0));
  await Promise.all(held.map((h) => h?.close()));
}
