import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { LaunchSpec } from "@/lib/agents/process";
import { DEMO_AGENT_PATH } from "@/lib/agents/demo";
import { git } from "@/lib/git";
import { WATCHDOG_PATH } from "@/lib/runs/watchdog";
import { bwrapArgs } from "@/lib/sandbox/bwrap";

const BWRAP = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"].find(existsSync) ?? null;

export type SandboxMode = "auto" | "off";

/**
 * How the runner starts an agent: inside bubblewrap where it is installed (own pid, net and
 * user namespaces; only the worktree and the branch's git parts writable; no network), or as a
 * plain child process with `--sandbox off` (e.g. for agents that must reach a model API).
 */
export async function runnerLaunch(mode: SandboxMode, worktree: string): Promise<{ launch: (spec: LaunchSpec) => LaunchSpec; label: string }> {
  if (mode === "off") return { launch: (spec) => spec, label: "unsandboxed (--sandbox off)" };
  if (!BWRAP) return { launch: (spec) => spec, label: "unsandboxed (bwrap is not installed)" };
  const [commonDir, worktreeDir] = (await git(worktree, ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir"])).trim().split("\n");
  const branchRef = (await git(worktree, ["symbolic-ref", "HEAD"])).trim();
  const home = mkdtempSync(join(tmpdir(), "rm-runner-home-"));
  const mounts = {
    worktree, home, egressDir: null, sockets: { proxy: false, mcp: false }, readOnly: [WATCHDOG_PATH, DEMO_AGENT_PATH],
    git: { commonDir, worktreeDir, branchRefsDir: join(commonDir, dirname(branchRef)) },
  };
  return {
    label: "sandboxed (bwrap, no network)",
    launch: (spec) => ({ command: BWRAP, args: bwrapArgs(mounts, null, spec), env: spec.env }),
  };
}
