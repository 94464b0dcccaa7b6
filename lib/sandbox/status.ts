import { getLogger } from "@/lib/log";
import { prepareSandboxHost, type SandboxHost } from "@/lib/sandbox/host";
import { runSelfTest } from "@/lib/sandbox/self-test";
import { publishSandboxStatus } from "@/lib/sandbox/status-store";

export type SandboxStatus = { ok: true; host: SandboxHost } | { ok: false; reason: string };

let status: Promise<SandboxStatus> | undefined;

/**
 * Whether agents can be sandboxed in this process: the host has what the sandbox needs and a
 * sandboxed probe proved the confinement. Found once per process; until it passes, agents do
 * not run (a project whose admin opted into unsandboxed runs excepted).
 */
export function getSandboxStatus(): Promise<SandboxStatus> {
  status ??= (async (): Promise<SandboxStatus> => {
    const host = await prepareSandboxHost();
    if (typeof host === "string") return { ok: false, reason: host };
    const failure = await runSelfTest(host);
    return failure ? { ok: false, reason: `the sandbox self-test failed: ${failure}` } : { ok: true, host };
  })().catch((err: Error) => ({ ok: false, reason: `the sandbox self-test failed: ${err.message}` }));
  return status;
}

/** The one start-up line (agents are confined, or why not and what happens instead), also told to the web pages. */
export async function reportSandboxStatus(): Promise<SandboxStatus> {
  const s = await getSandboxStatus();
  const log = getLogger("sandbox");
  if (s.ok) log.info({ user: s.host.user?.uid ?? "own uid in a user namespace" }, "agent sandbox ready: self-test passed (bubblewrap, own pid and network namespaces, egress proxy)");
  else log.error({ reason: s.reason }, "agent sandbox UNAVAILABLE: agents will not run, except in projects an admin opted into unsandboxed runs");
  await publishSandboxStatus(s);
  return s;
}
