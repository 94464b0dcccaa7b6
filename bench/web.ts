// The web app as the benches run it: a production build behind `next start`, and what its
// process tree uses.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { ensureBuild, root, sleep } from "./lib";

/** `next start` of the production build in `dist` (built first when sources changed) on a free port, healthy. */
export async function startWeb(dist: string, env: Record<string, string>): Promise<{ base: string; pid: number; stop: () => Promise<void> }> {
  ensureBuild(dist);
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
  });
  const web = spawn(join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root, stdio: ["ignore", "ignore", "inherit"], detached: true,
    env: { ...process.env, ...env, NODE_ENV: "production", NEXT_DIST_DIR: dist, NEXT_TELEMETRY_DISABLED: "1", AUTH_SECRET: randomBytes(32).toString("hex"), APP_URL: `http://127.0.0.1:${port}` },
  });
  // `next start` forks the server: signal the whole group, also when the bench fails.
  const kill = () => { try { process.kill(-web.pid!, "SIGTERM"); } catch { /* gone */ } };
  process.on("exit", kill);
  const base = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; ;) {
    if (web.exitCode !== null) throw new Error("next start exited");
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > until) throw new Error("the web process did not become healthy");
    await sleep(200);
  }
  return { base, pid: web.pid!, stop: () => new Promise((r) => { web.once("exit", () => r()); kill(); }) };
}

/** The process and all its descendants (next start forks its server). */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch { /* gone */ }
  }
  const all: number[] = [];
  for (const stack = [pid]; stack.length;) {
    const p = stack.pop()!;
    all.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return all;
}

export function treeRssMb(pid: number): number {
  let kb = 0;
  for (const p of tree(pid)) {
    try { kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0); } catch { /* gone */ }
  }
  return kb / 1024;
}

/** User + system CPU time the process tree has used, in ms (clock ticks of 10 ms). */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  for (const p of tree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* gone */ }
  }
  return ticks * 10;
}
