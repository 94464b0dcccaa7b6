import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, readlink, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAgentProcess } from "@/lib/agents/process";
import { bwrapArgs, WRONG_NETWORK_EXIT } from "@/lib/sandbox/bwrap";
import type { SandboxHost } from "@/lib/sandbox/host";
import { closeSpareHolders, keepSpareHolders, refillSpareHolder, startNetworkHolder, takeNetworkHolder } from "@/lib/sandbox/network-holder";
import { startSandbox } from "@/lib/sandbox/session";
import { getSandboxStatus } from "@/lib/sandbox/status";

/**
 * A sandbox whose agent reaches both the egress proxy and the MCP gateway joins a network namespace
 * made ahead, whose bridges listen already (lib/sandbox/network-holder.ts): its own, never the
 * worker's, never another sandbox's, and a namespace that is not the holder's starts nothing.
 */
let host: SandboxHost;
let dir: string;
beforeAll(async () => {
  const status = await getSandboxStatus();
  if (!status.ok) throw new Error(status.reason);
  host = status.host;
  dir = await mkdtemp(join(tmpdir(), "netholder-"));
  execFileSync("git", ["init", "-q", dir]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Running, not a zombie (gone from /proc once its parent reaped it).
const alive = (pid: string | number) => {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
};

async function netnsOf(session: Awaited<ReturnType<typeof startSandbox>>): Promise<string[]> {
  const lines: string[] = [];
  await runAgentProcess({
    command: "/bin/sh", args: ["-c", "readlink /proc/self/ns/net; for port in 3128 3129; do grep -c \"0100007F:$(printf %04X $port) .* 0A\" /proc/net/tcp; done"],
    cwd: dir, maxDurationMs: 30_000, env: { PATH: "/usr/bin:/bin" }, onLine: ({ line }) => lines.push(line), launch: session.launch,
  });
  return lines;
}

describe("the sandbox's network made ahead", () => {
  it("waits for bwrap's info when the bridges' word comes first: the two pipes are read in either order", async () => {
    // A stand-in for bwrap that says the bridges listen, and only then writes its info to fd 3
    // (as a loaded machine may deliver them); it then lives on like a holder.
    const fake = join(dir, "late-info-bwrap");
    await writeFile(fake, `#!/bin/sh\necho ${JSON.stringify("bridges listening")}\nsleep 0.3\nprintf '{\\n    "child-pid": %s,\\n    "net-namespace": 1234\\n}\\n' "$$" >&3\nexec 3>&-\nexec sleep 30\n`);
    await chmod(fake, 0o755);
    const holder = await startNetworkHolder({ ...host, bwrap: fake });
    try {
      expect(holder.netns).toBe("net:[1234]");
      expect(holder.nsPath).toMatch(/^\/proc\/\d+\/ns\/net$/);
    } finally {
      await holder.close();
    }
  });

  it("is joined by the agent: a new namespace of its own per sandbox, with both bridges listening", async () => {
    const open = () => startSandbox(host, { worktree: dir, git: null, policy: { mode: "allow-list", rules: [] }, readOnly: [], mcp: { token: "t", serve: async () => new Response("") } });
    const [a, b] = [await open(), await open()];
    try {
      expect(a.launch({ command: "true", args: [], env: {} }).command).toBe(host.nsenter);
      const [inA, inB] = [await netnsOf(a), await netnsOf(b)];
      const ours = await readlink("/proc/self/ns/net");
      expect(inA[0]).toMatch(/^net:\[\d+\]$/);
      expect(inA[0]).not.toBe(ours);
      expect(inB[0]).not.toBe(ours);
      expect(inA[0]).not.toBe(inB[0]);
      expect(inA.slice(1)).toEqual(["1", "1"]);
      // The agent and a later command of the same sandbox (the verify) share it; nothing else does.
      expect((await netnsOf(a))[0]).toBe(inA[0]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("without a proxy (no network allowed) is not used: the sandbox makes its own namespace as before", async () => {
    const s = await startSandbox(host, { worktree: dir, git: null, policy: { mode: "none", rules: [] }, readOnly: [], mcp: { token: "t", serve: async () => new Response("") } });
    try {
      expect(s.launch({ command: "true", args: [], env: {} }).command).toBe(host.bwrap);
      expect((await netnsOf(s)).slice(1)).toEqual(["0", "1"]);
    } finally {
      await s.close();
    }
  });

  it("stops its bridges and removes its sockets' folder when closed; a command joining it then starts nothing", async () => {
    const holder = await startNetworkHolder(host);
    const pid = holder.nsPath.split("/")[2];
    expect(alive(pid)).toBe(true);
    await holder.close();
    expect(alive(pid)).toBe(false);
    expect(existsSync(holder.egressDir)).toBe(false);
    const marker = join(dir, "started-after-close");
    const args = bwrapArgs({ worktree: dir, git: null, home: dir, egressDir: holder.egressDir, sockets: { proxy: true, mcp: true }, readOnly: [], joinedNetwork: holder.netns }, host.user, { command: `touch ${marker}`, args: [], shell: true });
    const r = spawnSync(host.nsenter!, [`--net=${holder.nsPath}`, "--", host.bwrap, ...args], { encoding: "utf8" });
    expect(r.status).not.toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it("is checked inside before the command runs: another namespace under its path (its pid reused) starts nothing", async () => {
    const holder = await startNetworkHolder(host);
    // A process in the worker's own network namespace stands in for one that took the holder's pid.
    const other = spawn("sleep", ["30"]);
    try {
      const marker = join(dir, "started-elsewhere");
      const args = bwrapArgs({ worktree: dir, git: null, home: dir, egressDir: holder.egressDir, sockets: { proxy: true, mcp: true }, readOnly: [], joinedNetwork: holder.netns }, host.user, { command: `touch ${marker}`, args: [], shell: true });
      const r = spawnSync(host.nsenter!, [`--net=/proc/${other.pid}/ns/net`, "--", host.bwrap, ...args], { encoding: "utf8" });
      expect(r.status).toBe(WRONG_NETWORK_EXIT);
      expect(r.stderr).toContain("not its own");
      expect(existsSync(marker)).toBe(false);
      // The same command in the holder's namespace runs.
      const ok = spawnSync(host.nsenter!, [`--net=${holder.nsPath}`, "--", host.bwrap, ...args], { encoding: "utf8" });
      expect(ok.status).toBe(0);
      expect(existsSync(marker)).toBe(true);
    } finally {
      other.kill("SIGKILL");
      await holder.close();
    }
  });

  it("dies with the worker that made it, even when the worker is SIGKILLed", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/network-holder-child.ts"], { stdio: ["ignore", "pipe", "inherit"] });
    const pid = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (c) => { out += c; const m = /holder (\d+)/.exec(out); if (m) resolve(m[1]); });
      child.once("exit", (code) => reject(new Error(`the worker exited (${code}) before its holder was ready: ${out}`)));
    });
    expect(alive(pid)).toBe(true);
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
  });

  it("a worker keeps one ready: a sandbox takes it (moved to its own folder), the next is made when asked; a spare whose bridges died is not handed out", async () => {
    keepSpareHolders(host);
    const taken: Awaited<ReturnType<typeof takeNetworkHolder>>[] = [];
    try {
      const [a, b, b2] = [join(dir, "egress-a"), join(dir, "egress-b"), join(dir, "egress-b2")];
      const spawnedBefore = await holderBwraps(1);
      taken.push(await takeNetworkHolder(host, a));
      // Taking made nothing new (a run's start does not pay for the next spare)...
      await new Promise((r) => setTimeout(r, 200));
      expect(await holderBwraps()).toEqual(spawnedBefore);
      // ...the refill does, and the next sandbox takes that one.
      refillSpareHolder();
      const spare = (await holderBwraps(2)).filter((pid) => !spawnedBefore.includes(pid));
      expect(spare).toHaveLength(1);
      taken.push(await takeNetworkHolder(host, b));
      expect(await holderBwraps()).toContain(spare[0]);
      // With no spare ready, a sandbox makes its own at once.
      taken.push(await takeNetworkHolder(host, b2));
      expect(taken[2].netns).not.toBe(taken[1].netns);
      expect(taken.map((h) => h.egressDir)).toEqual([a, b, b2]);
      expect(taken[0].netns).not.toBe(taken[1].netns);
      // Its bridges reach the sockets in the folder it was moved to.
      const lines: string[] = [];
      const gateway = createServer((_req, res) => res.end("via the moved folder"));
      await new Promise<void>((r) => gateway.listen(join(a, "mcp.sock"), r));
      await chmod(join(a, "mcp.sock"), 0o666);
      try {
        const args = bwrapArgs({ worktree: dir, git: null, home: dir, egressDir: a, sockets: { proxy: true, mcp: true }, readOnly: [], joinedNetwork: taken[0].netns }, host.user, { command: "curl -s --noproxy '*' http://127.0.0.1:3129/", args: [], shell: true });
        await runAgentProcess({ command: host.nsenter!, args: [`--net=${taken[0].nsPath}`, "--", host.bwrap, ...args], cwd: dir, maxDurationMs: 30_000, env: { PATH: "/usr/bin:/bin" }, onLine: ({ line }) => lines.push(line) });
      } finally {
        gateway.close();
      }
      expect(lines).toEqual(["via the moved folder"]);
      await taken[0].close();
      expect(existsSync(a)).toBe(false);
      expect(alive(taken[1].nsPath.split("/")[2])).toBe(true);

      // A spare that dies before it is taken: the next sandbox gets a new one.
      const before = await holderBwraps();
      refillSpareHolder();
      const next = (await holderBwraps(before.length + 1)).find((pid) => !before.includes(pid))!;
      process.kill(Number(next), "SIGKILL");
      // Gone from /proc once this process reaped it.
      for (let i = 0; i < 200 && existsSync(`/proc/${next}`); i++) await new Promise((r) => setTimeout(r, 10));
      const fresh = await takeNetworkHolder(host, join(dir, "egress-d"));
      taken.push(fresh);
      expect(fresh.alive()).toBe(true);
      expect(await holderBwraps()).not.toContain(next);
      const ok = await netnsOfHolder(fresh);
      expect(ok).toEqual([fresh.netns]);
    } finally {
      await closeSpareHolders();
      for (const h of taken) await h.close();
    }
  });

  it("a worker that keeps two has both ready for two sandboxes starting at once, and makes both again when asked", async () => {
    keepSpareHolders(host, 2);
    const taken: Awaited<ReturnType<typeof takeNetworkHolder>>[] = [];
    try {
      const ready = await holderBwraps(2);
      taken.push(...await Promise.all([takeNetworkHolder(host, join(dir, "egress-two-a")), takeNetworkHolder(host, join(dir, "egress-two-b"))]));
      // Both were made ahead: the takes started no bwrap of their own.
      await new Promise((r) => setTimeout(r, 200));
      expect(await holderBwraps()).toEqual(ready);
      expect(taken[0].netns).not.toBe(taken[1].netns);
      refillSpareHolder();
      expect((await holderBwraps(4)).filter((pid) => !ready.includes(pid))).toHaveLength(2);
    } finally {
      await closeSpareHolders();
      for (const h of taken) await h.close();
    }
  });
});

// The holders' bwrap processes this process started (running or not yet reaped), once there are `atLeast`.
async function holderBwraps(atLeast = 0): Promise<string[]> {
  for (let i = 0; ; i++) {
    const r = spawnSync("pgrep", ["--parent", String(process.pid), "-f", `^${host.bwrap} --info-fd 3`], { encoding: "utf8" });
    const pids = r.stdout.split("\n").filter(Boolean);
    if (pids.length >= atLeast || i === 500) return pids;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function netnsOfHolder(holder: { netns: string; nsPath: string; egressDir: string }): Promise<string[]> {
  const lines: string[] = [];
  const args = bwrapArgs({ worktree: dir, git: null, home: dir, egressDir: holder.egressDir, sockets: { proxy: true, mcp: true }, readOnly: [], joinedNetwork: holder.netns }, host.user, { command: "readlink /proc/self/ns/net", args: [], shell: true });
  await runAgentProcess({ command: host.nsenter!, args: [`--net=${holder.nsPath}`, "--", host.bwrap, ...args], cwd: dir, maxDurationMs: 30_000, env: { PATH: "/usr/bin:/bin" }, onLine: ({ line }) => lines.push(line) });
  return lines;
}
