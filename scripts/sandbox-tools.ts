// Finds the agent sandbox's tools (bubblewrap, socat); installs them where this machine can
// (root with apt-get), else says in one line what happens without them.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const TOOLS = { bwrap: "bubblewrap", socat: "socat" } as const;

function missing(): string[] {
  const path = (process.env.PATH ?? "/usr/bin:/bin").split(":");
  return Object.entries(TOOLS).filter(([bin]) => !path.some((d) => existsSync(`${d}/${bin}`))).map(([, pkg]) => pkg);
}

export function ensureSandboxTools(log: (line: string) => void): void {
  let packages = missing();
  if (packages.length && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    log(`installing the agent sandbox's ${packages.join(" and ")} (apt-get)…`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    spawnSync("apt-get", ["install", "-y", "-qq", ...packages], { stdio: "inherit", env });
    packages = missing();
  }
  if (packages.length) {
    log(`the agent sandbox needs ${packages.join(" and ")} (apt-get install ${packages.join(" ")}): until then agents run only in projects an admin opted into unsandboxed runs`);
  }
}
