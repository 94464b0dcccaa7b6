import pino from "pino";
import { getEnv } from "@/lib/env";

// Secrets never reach the logs: known secret-bearing keys are censored wherever they
// appear, and connection URLs lose their credentials before they are logged.
const redactPaths = [
  "password", "token", "secret", "authorization", "cookie", "privateKey", "apiKey",
  "*.password", "*.token", "*.secret", "*.authorization", "*.cookie", "*.privateKey", "*.apiKey",
  "*.headers.authorization", "*.headers.cookie", "env.*",
];

let root: pino.Logger | undefined;

export function getLogger(name?: string): pino.Logger {
  root ??= pino({
    level: getEnv().LOG_LEVEL,
    redact: { paths: redactPaths, censor: "[redacted]" },
    base: { pid: process.pid },
  });
  return name ? root.child({ name }) : root;
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "[unparseable url]";
  }
}
