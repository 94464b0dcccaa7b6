import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { getEnv } from "@/lib/env";
import type { SandboxHost } from "@/lib/sandbox/host";
import { startSandbox } from "@/lib/sandbox/session";
import { PROXY_PROBE_JS } from "@/lib/sandbox/proxy-probe";

const OFF_LIST_HOST = "selftest.invalid";

// Each check prints why it failed; the probe passes only by reaching its last line.
const PROBE = `
fail() { echo "$1"; exit 1; }
[ -e "$1" ] && fail "the data folder is visible"
n=0; for p in /proc/[0-9]*; do n=$((n+1)); done
[ "$n" -le 8 ] || fail "$n processes are visible"
[ "$(id -u)" != 0 ] || fail "the agent runs as root"
grep -qvE '^ *(lo:|Inter-|face)' /proc/net/dev && fail "network interfaces other than loopback are visible"
socat -u OPEN:/dev/null TCP:1.1.1.1:443,connect-timeout=2 2>/dev/null && fail "a direct connection left the sandbox"
"$2" -e "$3" 'CONNECT ${OFF_LIST_HOST}:443 HTTP/1.1' ' 403 ' || fail "the egress proxy did not refuse a host off the list"
echo confined
`;

/**
 * Proves the confinement with a sandboxed probe: it must not see the data folder or any other
 * process, must not be root, and must fail to reach a host off its (empty) allow-list, both
 * directly and through the proxy, which must count the refusal. Returns why not, or null.
 */
export async function runSelfTest(host: SandboxHost): Promise<string | null> {
  const worktree = await mkdtemp(join(tmpdir(), "ringmaster-selftest-"));
  const session = await startSandbox(host, { worktree, git: null, policy: { mode: "allow-list", rules: [] }, readOnly: [] });
  try {
    const spec = session.launch({ command: "/bin/sh", args: ["-c", PROBE, "probe", resolve(getEnv().DATA_DIR), process.execPath, PROXY_PROBE_JS], env: { PATH: "/usr/bin:/bin" } });
    const { code, output } = await new Promise<{ code: number | null; output: string }>((done) => {
      const child = spawn(spec.command, spec.args, { env: spec.env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (c: Buffer) => { output += c.toString(); });
      child.stderr.on("data", (c: Buffer) => { output += c.toString(); });
      child.on("error", (err) => done({ code: null, output: err.message }));
      child.on("close", (code) => done({ code, output }));
    });
    const counts = await session.close();
    if (code !== 0 || output.trim() !== "confined") return output.trim().split("\n").pop() || `the probe exited with ${code}`;
    if (counts.blocked[OFF_LIST_HOST] !== 1) return "the egress proxy did not count the refused host";
    return null;
  } finally {
    await session.close();
    await rm(worktree, { recursive: true, force: true });
  }
}
