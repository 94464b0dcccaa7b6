import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { isAbsolute, join } from "node:path";
import { promisify } from "node:util";
import { getEnv } from "@/lib/env";
import { SETPRIV, type SandboxUser } from "@/lib/sandbox/bwrap";

const run = promisify(execFile);

/** `nsenter`: where util-linux's nsenter is, when we are root (a run's agent joins a network made ahead with it). */
export type SandboxHost = { bwrap: string; user: SandboxUser; nsenter?: string | null };

function findExecutable(name: string): string | null {
  const candidates = isAbsolute(name) ? [name] : getEnv().PATH.split(":").map((d) => join(d, name));
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch { /* next */ }
  }
  return null;
}

async function agentUser(name: string): Promise<SandboxUser> {
  const ids = async () => {
    const [u, g] = await Promise.all([run("id", ["-u", name]), run("id", ["-g", name])]);
    return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    await run("useradd", ["--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name]);
    return ids();
  }
}

/**
 * What the sandbox needs from this machine: bubblewrap, socat (the in-sandbox bridge to the
 * egress socket) and, when we are root, setpriv and an unprivileged user to become. Returns
 * why not, as one line, when something is missing.
 */
export async function prepareSandboxHost(): Promise<SandboxHost | string> {
  const env = getEnv();
  const bwrap = findExecutable(env.SANDBOX_BWRAP);
  if (!bwrap) return `bubblewrap (${env.SANDBOX_BWRAP}) is not installed: apt-get install bubblewrap`;
  if (!findExecutable("socat")) return "socat is not installed: apt-get install socat";
  if (process.getuid?.() !== 0) return { bwrap, user: null };
  if (!SETPRIV) return "setpriv is not installed in a system folder (/usr/bin, /bin, …): apt-get install util-linux";
  try {
    return { bwrap, user: await agentUser(env.SANDBOX_AGENT_USER), nsenter: findExecutable("nsenter") };
  } catch (err) {
    return `cannot create the sandbox user ${env.SANDBOX_AGENT_USER}: ${(err as Error).message.split("\n")[0]}`;
  }
}
