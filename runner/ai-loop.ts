import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { requireAdapter } from "@/lib/agents/registry";
import { runAgent } from "@/lib/agents/run";

/**
 * `--ai-loop`: the old way, kept as an opt-in. The agent is started again and again with the
 * role's standing prompt and finds its own work (through its tools); the runner does not poll.
 * It stops on Ctrl-C, or when the agent exits with an error.
 */
export async function aiLoop(opts: { role: "worker" | "lead"; adapter: string; workDir: string; say: (line: string) => void; signal: AbortSignal }) {
  const cwd = join(opts.workDir, "ai-loop");
  mkdirSync(cwd, { recursive: true });
  const prompt = opts.role === "lead" ? "/start-leader" : "/start-worker";
  for (let iteration = 1; !opts.signal.aborted; iteration++) {
    opts.say(`ai-loop iteration ${iteration}: ${opts.adapter} ${prompt}`);
    const exit = await runAgent({
      adapter: requireAdapter(opts.adapter), context: { prompt, worktree: cwd, extraArgs: [] }, env: { PATH: process.env.PATH ?? "" },
      signal: opts.signal, maxDurationMs: 24 * 3_600_000, onLine: ({ line }) => console.log(line),
    });
    if (exit.exitCode !== 0 && !opts.signal.aborted) {
      opts.say(`ai-loop: the agent exited with ${exit.exitCode ?? exit.signal}; stopping`);
      process.exitCode = 1;
      return;
    }
  }
}
