import { Writable } from "node:stream";
import { logTo } from "@/lib/log";

/**
 * For tests: every line logged from now on, parsed, in the array returned (the process's logger
 * is replaced, as logTo does). Each call starts a new, empty capture.
 */
export function captureLogs(level = "debug"): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  logTo(new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(chunk.toString())); done(); } }), level);
  return lines;
}
