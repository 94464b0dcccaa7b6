// "Hosts" for fleet tests: Linux network namespaces, each joined to the root namespace by a
// veth pair of its own, so a process inside reaches Postgres, Redis and the web server only
// over a network link, as on another machine (the filesystem stays shared: a local
// repository is reachable from both, as a shared disk would be).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");
// Names carry the owning test process's pid, so leftovers of a dead run are recognised.
const PREFIX = "rmfleet";
const ip = (...args: string[]) => execFileSync("ip", args, { stdio: ["ignore", "pipe", "pipe"] }).toString();
const alive = (pid: number) => existsSync(`/proc/${pid}`);

export interface Host {
  name: string;
  ns: string;
  /** The root namespace's end of the link: what processes inside the host connect to. */
  gateway: string;
  /** The host's own address. */
  address: string;
}

/** Why namespaces cannot be made here (not root, no iproute2, no CAP_SYS_ADMIN), or null. */
export function namespacesUnavailable(): string | null {
  const probe = `${PREFIX}-${process.pid}-probe`;
  try {
    ip("netns", "add", probe);
    ip("netns", "del", probe);
    return null;
  } catch (err) {
    const e = err as { code?: string; stderr?: Buffer; message: string };
    if (e.code === "ENOENT") return "the `ip` command (iproute2) is not installed";
    return `\`ip netns add\` failed: ${(e.stderr?.toString() || e.message).trim().split("\n")[0]}`;
  }
}

/** Deletes namespaces and links an earlier run left behind when its process died. */
export function removeLeftoverHosts(): void {
  for (const line of ip("netns", "list").split("\n")) {
    const ns = line.split(" ")[0];
    const m = new RegExp(`^${PREFIX}-(\\d+)-`).exec(ns);
    if (m && !alive(Number(m[1]))) ip("netns", "del", ns);
  }
  for (const line of ip("-o", "link", "show").split("\n")) {
    const m = /^\d+: (rmf(\d+)[a-z])@/.exec(line);
    if (m && !alive(Number(m[2]))) ip("link", "del", m[1]);
  }
}

/** A namespace with a veth pair: 10.231.<pid>.<4i+1> on the root side, .<4i+2> inside. */
export function makeHost(name: string, index: number): Host {
  const ns = `${PREFIX}-${process.pid}-${name}`;
  const outside = `rmf${process.pid}${String.fromCharCode(97 + index)}`;
  const net = `10.231.${process.pid % 250}`;
  const gateway = `${net}.${index * 4 + 1}`;
  const address = `${net}.${index * 4 + 2}`;
  ip("netns", "add", ns);
  ip("link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", ns);
  ip("addr", "add", `${gateway}/30`, "dev", outside);
  ip("link", "set", outside, "up");
  ip("-n", ns, "addr", "add", `${address}/30`, "dev", "eth0");
  ip("-n", ns, "link", "set", "eth0", "up");
  ip("-n", ns, "link", "set", "lo", "up");
  ip("-n", ns, "route", "add", "default", "via", gateway);
  return { name, ns, gateway, address };
}

/** Deleting the namespace destroys its veth pair with it. */
export function removeHost(host: Host): void {
  try { ip("netns", "del", host.ns); } catch { /* already gone */ }
}

/** Every process of the host and every descendant (an agent in a sandbox has a namespace of its own). */
function processesOf(host: Host): number[] {
  const inside = ip("netns", "pids", host.ns).split("\n").filter(Boolean).map(Number);
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      // The command name may hold spaces and parentheses: the parent pid follows the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch { /* exited meanwhile */ }
  }
  const all = new Set(inside);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) if (all.has(parent) && !all.has(pid)) { all.add(pid); grew = true; }
  }
  return [...all];
}

/** Pulls the plug: SIGKILL to every process of the host at once; resolves when none is left. */
export async function killHost(host: Host): Promise<number[]> {
  const pids = processesOf(host);
  for (const pid of pids) try { process.kill(pid, "SIGKILL"); } catch { /* exited meanwhile */ }
  const gone = (pid: number) => { try { return readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z "); } catch { return true; } };
  while (!pids.every(gone)) await new Promise((r) => setTimeout(r, 50));
  return pids;
}

const freePortOn = (address: string) => new Promise<number>((resolve, reject) => {
  const server = createServer();
  server.once("error", reject);
  server.listen(0, address, () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});

const answers = (address: string, port: number) => new Promise<boolean>((resolve) => {
  const socket = connect(port, address);
  socket.once("connect", () => { socket.destroy(); resolve(true); });
  socket.once("error", () => resolve(false));
});

/**
 * A TCP forward (socat) from the host's gateway address to a service that listens on the root
 * namespace's loopback only (the tests' Postgres, Redis and web server).
 */
export async function forward(address: string, targetPort: number): Promise<{ port: number; stop: () => void }> {
  const port = await freePortOn(address);
  const child = spawn("socat", [`TCP-LISTEN:${port},bind=${address},fork,reuseaddr`, `TCP:127.0.0.1:${targetPort}`], { stdio: "ignore", detached: true });
  for (let i = 0; !(await answers(address, port)); i++) {
    if (child.exitCode !== null || i > 100) throw new Error(`socat did not listen on ${address}:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // The group: the listener and the copy it forked for each open connection.
  return { port, stop: () => { try { process.kill(-child.pid!, "SIGKILL"); } catch { /* gone */ } } };
}

/** A program of this repository (`node --import tsx <script>`), run inside the host. */
export function startInHost(host: Host, script: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess & { output: () => string } {
  let output = "";
  // `ip netns exec` execs the program itself, so the child is the node process.
  const child = spawn("ip", ["netns", "exec", host.ns, process.execPath, "--import", "tsx", script, ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (c: Buffer) => { output += c.toString(); });
  child.stderr!.on("data", (c: Buffer) => { output += c.toString(); });
  return Object.assign(child, { output: () => output });
}
