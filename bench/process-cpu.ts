// CPU time of processes, read from /proc (Linux): a process and its descendants by pid, or every
// process of a command name (Postgres backends, Redis). Shared services count other clients too.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

type Stat = { pid: number; ppid: number; comm: string; cpuMs: number };

function stats(): Stat[] {
  const out: Stat[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, "utf8");
      const close = text.lastIndexOf(")");
      const comm = text.slice(text.indexOf("(") + 1, close);
      const fields = text.slice(close + 2).split(" ");
      // After the command: state ppid … utime(12th) stime(13th), counted from the state.
      out.push({ pid: Number(name), ppid: Number(fields[1]), comm, cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND });
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

export type CpuTargets = Record<string, { pid: number } | { comm: string }>;

/** CPU milliseconds used so far by each named target. */
export function cpuNow(targets: CpuTargets): Record<string, number> {
  const all = stats();
  const result: Record<string, number> = {};
  for (const [label, target] of Object.entries(targets)) {
    if ("comm" in target) {
      result[label] = all.filter((s) => s.comm === target.comm).reduce((n, s) => n + s.cpuMs, 0);
      continue;
    }
    const tree = new Set([target.pid]);
    for (let grew = true; grew;) {
      grew = false;
      for (const s of all) if (!tree.has(s.pid) && tree.has(s.ppid)) { tree.add(s.pid); grew = true; }
    }
    result[label] = all.filter((s) => tree.has(s.pid)).reduce((n, s) => n + s.cpuMs, 0);
  }
  return result;
}

