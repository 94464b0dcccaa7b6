import { readFileSync } from "node:fs";
import { getEnv } from "@/lib/env";

/**
 * The time the lead agents' loop goes by: the real clock, or in tests the instant (epoch ms)
 * written in TEST_CLOCK_FILE, read on every pass so a test can move a running worker process's
 * clock forward (lib/env.ts refuses the variable in production). An unreadable file: real time.
 */
export function leadLoopNow(): Date {
  const file = getEnv().TEST_CLOCK_FILE;
  if (!file) return new Date();
  let at = NaN;
  try {
    at = Number(readFileSync(file, "utf8").trim());
  } catch {
    // not written yet
  }
  return Number.isFinite(at) && at > 0 ? new Date(at) : new Date();
}
