import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "./helpers/fixtures";

const root = join(import.meta.dirname, "..");
const started: number[] = [];

// Every process below `pid`, from /proc (ppid is the 4th field, after the name in parentheses).
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch { /* gone meanwhile */ }
  }
  const out: number[] = [];
  for (let todo = [pid]; todo.length;) todo = todo.flatMap((p) => parents.get(p) ?? []).filter((c) => out.push(c));
  return out;
}

// A process that is gone or a zombie no longer runs.
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch { return false; }
}

async function startSupervisor(mode: string, spawner = false): Promise<{ child: ChildProcess; agents: number[] }> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/agent-supervisor.ts"], { cwd: root, env: { ...process.env, MODE: mode, SPAWNER: spawner ? "on" : "off" }, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (c) => { out += c; });
  await waitUntil("the agent to start", async () => out.includes("agent up") || (child.exitCode !== null && Promise.reject(new Error(`exited: ${out}`))), 60_000);
  const agents = descendants(child.pid!);
  started.push(...agents);
  return { child, agents };
}

const isSleeper = (command: string) => command === "sleep 300" || command === "sleep 301";
const commands = (pids: number[]) => pids.map((p) => { try { return readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").filter(Boolean).join(" "); } catch { return ""; } });

afterEach(() => { for (const pid of started.splice(0)) try { process.kill(pid, "SIGKILL"); } catch { /* gone */ } });

describe("an agent dies with the process that supervises it, even when that one is SIGKILLed", () => {
  // A worker starts its agents through its spawner (lib/spawner.ts), which exits with the worker.
  describe.each([["started by the supervisor itself", false], ["started by its spawner", true]])("%s", (_, spawner) => {
    it("sandboxed: bwrap dies with its parent and takes the sandbox's whole pid namespace, with no watchdog process", async () => {
      const { child, agents } = await startSupervisor("sandbox", spawner);
      expect(commands(agents).filter(isSleeper).length).toBe(2);
      expect(commands(agents).some((c) => c.includes("watchdog.mjs"))).toBe(false);
      expect(commands(agents).some((c) => c.includes("spawner.mjs"))).toBe(spawner);
      child.kill("SIGKILL");
      expect(await waitUntil("every agent process to be gone", async () => agents.every((p) => !alive(p)), 30_000)).toBe(true);
    }, 120_000);

    it("unsandboxed: the watchdog kills the agent's whole group", async () => {
      const { child, agents } = await startSupervisor("unsandboxed", spawner);
      expect(commands(agents).some((c) => c.includes("watchdog.mjs"))).toBe(true);
      expect(commands(agents).some((c) => c.includes("spawner.mjs"))).toBe(spawner);
      child.kill("SIGKILL");
      expect(await waitUntil("every agent process to be gone", async () => agents.every((p) => !alive(p)), 30_000)).toBe(true);
    }, 120_000);
  });

  it("without either, the agent outlives a killed supervisor (what the two above prevent)", async () => {
    const { child, agents } = await startSupervisor("unsupervised");
    const sleepers = agents.filter((p) => isSleeper(commands([p])[0]));
    expect(sleepers).toHaveLength(2);
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(sleepers.filter(alive)).toEqual(sleepers);
  }, 120_000);
});
