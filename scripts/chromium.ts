// Finds a Chromium for the e2e specs: CHROMIUM_PATH, Debian's /usr/bin/chromium, or
// Playwright's own cache; installs one when none is there and this machine can.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

function playwrightCache(): string | null {
  const dir = process.env.PLAYWRIGHT_BROWSERS_PATH ?? join(homedir(), ".cache", "ms-playwright");
  if (!existsSync(dir)) return null;
  for (const entry of readdirSync(dir).filter((e) => e.startsWith("chromium-")).sort().reverse()) {
    for (const sub of ["chrome-linux64/chrome", "chrome-linux/chrome"]) {
      const p = join(dir, entry, sub);
      if (existsSync(p)) return p;
    }
  }
  return null;
}

export function findChromium(): string | null {
  const explicit = process.env.CHROMIUM_PATH;
  if (explicit) return existsSync(explicit) ? explicit : null;
  return ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p)) ?? playwrightCache();
}

export function ensureChromium(log: (line: string) => void): string {
  const found = findChromium();
  if (found) return found;
  if (process.env.CHROMIUM_PATH) throw new Error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist`);
  if (process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    log("installing Debian's chromium (apt-get)…");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
  } else {
    log("installing Playwright's chromium…");
    spawnSync(join("node_modules", ".bin", "playwright"), ["install", "chromium"], { stdio: "inherit" });
  }
  const after = findChromium();
  if (!after) {
    throw new Error("No Chromium found. Install one: `sudo apt-get install chromium` (Debian/Ubuntu), `npx playwright install chromium`, or set CHROMIUM_PATH.");
  }
  return after;
}
