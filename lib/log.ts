import pino from "pino";
import { getEnv } from "@/lib/env";

// Secrets never reach the logs: known secret-bearing keys are censored wherever they appear.
const redactPaths = [
  "password", "token", "secret", "authorization", "cookie", "privateKey", "apiKey",
  "*.password", "*.token", "*.secret", "*.authorization", "*.cookie", "*.privateKey", "*.apiKey",
  "*.headers.authorization", "*.headers.cookie", "env.*",
];

let root: pino.Logger | undefined;

export function createLogger(level: string, destination?: pino.DestinationStream): pino.Logger {
  return pino({ level, redact: { paths: redactPaths, censor: "[redacted]" }, base: { pid: process.pid } }, destination);
}

export function getLogger(name?: string): pino.Logger {
  root ??= createLogger(getEnv().LOG_LEVEL);
  return name ? root.child({ name }) : root;
}

/**
 * Points the process's logger at `destination` from now on (loggers got before keep theirs):
 * the seam tests use to read what a module logs.
 */
export function logTo(destination: pino.DestinationStream, level = "debug"): void {
  root = createLogger(level, destination);
}
