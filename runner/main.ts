// A Ringmaster runner: runs agents on this machine for a Ringmaster server it reaches over HTTP.
//
//   npx ringmaster runner --url https://ringmaster.example --token rm_runner_… [--role worker|lead]
//     [--name NAME] [--capabilities a,b] [--max-concurrent N] [--work-dir DIR]
//     [--sandbox auto|off] [--pass-env NAME,NAME] [--ai-loop]
//
// It registers, then long-polls for a trigger; each run it gets is worked in a worktree of its
// own clone of the project, streamed to the server, committed, pushed and reported. It holds no
// database or Redis credentials. The token may also come from RINGMASTER_RUNNER_TOKEN.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { detectClis } from "@/lib/agents/installed";
import { ApiError, RunnerApi } from "./api";
import { aiLoop } from "./ai-loop";
import { workOnRun, type RunWork } from "./work";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" }, token: { type: "string" }, role: { type: "string", default: "worker" }, name: { type: "string" },
    capabilities: { type: "string", default: "" }, "max-concurrent": { type: "string", default: "1" },
    "work-dir": { type: "string", default: join(homedir(), ".ringmaster-runner") }, sandbox: { type: "string", default: "auto" },
    "pass-env": { type: "string", default: "" }, "ai-loop": { type: "boolean", default: false }, adapter: { type: "string", default: "claude" },
  },
});

const say = (line: string) => console.log(`[runner ${new Date().toISOString()}] ${line}`);
const list = (v: string) => v.split(",").map((s) => s.trim()).filter(Boolean);
const token = args.token ?? process.env.RINGMASTER_RUNNER_TOKEN;
if (!args.url || !token) {
  console.error(`${args.url ? "--token (or RINGMASTER_RUNNER_TOKEN) is required" : "--url is required"}
usage: npx ringmaster runner --url <server URL> --token <rm_runner_… token> [--role worker|lead] [--name NAME]
         [--capabilities a,b] [--max-concurrent N] [--work-dir DIR] [--sandbox auto|off] [--pass-env NAME,…] [--ai-loop]
(see the README: Run agents on another machine)`);
  process.exit(2);
}
if (args.role !== "worker" && args.role !== "lead") { console.error("--role must be worker or lead"); process.exit(2); }
if (args.sandbox !== "auto" && args.sandbox !== "off") { console.error("--sandbox must be auto or off"); process.exit(2); }
const maxConcurrent = Number(args["max-concurrent"]);
if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1 || maxConcurrent > 32) { console.error("--max-concurrent must be a whole number from 1 to 32"); process.exit(2); }

// The agent id is kept across restarts, so a restarted runner is the same agent (409 → carry on).
const workDir = resolve(args["work-dir"]);
mkdirSync(workDir, { recursive: true });
const idFile = join(workDir, "agent-id");
const agentId = existsSync(idFile) ? readFileSync(idFile, "utf8").trim() : randomUUID();
writeFileSync(idFile, agentId);

const api = new RunnerApi({ url: args.url, token, agentId, say });
const shutdown = new AbortController();
let exitCode = 0;
for (const [sig, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.on(sig, () => {
    // A second Ctrl-C does not wait for the reports.
    if (shutdown.signal.aborted) { say(`${sig} again: exiting now`); process.exit(code); }
    say(`${sig}: stopping (running agents are stopped and reported as cancelled)`); exitCode = code; shutdown.abort("runner shut down");
  });
}
// A bug in the runner itself is said, and its running agents are stopped and reported like a
// shutdown's, rather than left to their leases; it then exits 1.
const crash = (err: unknown) => {
  say(`crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  exitCode = 1;
  if (!shutdown.signal.aborted) shutdown.abort(`runner crashed: ${err instanceof Error ? err.message : String(err)}`);
  setTimeout(() => process.exit(1), 30_000).unref();
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);

/**
 * The agent CLIs on this machine's PATH (the one its agents get), as the server's Agents page
 * shows its own: the server offers a profile only a host with its CLI can run. A version line is
 * cut to what the server takes (colour codes and all control characters out, 200 characters).
 */
async function installedClis() {
  const found = await detectClis(process.env.PATH ?? "");
  return found.filter((c) => c.path && c.path.length <= 1000).map((c) => ({
    adapter: c.adapter, path: c.path!, version: c.version?.replace(/\u001b\[[0-9;]*m/g, "").replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 200) || null,
  }));
}

async function main() {
  const clis = await installedClis();
  const registered = await api.call("POST", "/api/runner/agents", {
    role: args.role, capabilities: list(args.capabilities!), maxConcurrent, clis, ...(args.name ? { name: args.name } : {}),
  });
  if (registered.status !== 201 && registered.status !== 409) throw new ApiError(registered.status, registered.body, "registration");
  const agent = (registered.body as { agent?: { name: string } }).agent;
  if (!agent) throw new ApiError(registered.status, registered.body, "registration");
  say(`${registered.status === 201 ? "registered" : "already registered"} as "${agent.name}" (${agentId}), ${args.role}, up to ${maxConcurrent} at once`);
  say(`agent CLIs here: ${clis.length ? clis.map((c) => `${c.adapter} ${c.version ?? "(no version)"}`).join(", ") : "none found on PATH"}`);
  if (args["ai-loop"]) return aiLoop({ role: args.role as "worker" | "lead", adapter: args.adapter!, workDir, say, signal: shutdown.signal });

  const running = new Set<Promise<unknown>>();
  const opts = { api, url: args.url!, workDir, sandbox: args.sandbox as "auto" | "off", passEnv: list(args["pass-env"]!), say, signal: shutdown.signal };
  while (!shutdown.signal.aborted) {
    if (running.size >= maxConcurrent) { await Promise.race(running); continue; }
    let polled;
    try {
      polled = await api.expect<{ trigger: { type: string; run?: RunWork; offer?: { id: string } } | null }>("GET", "/api/runner/poll?wait=30", [200], undefined, shutdown.signal);
    } catch (err) {
      if (shutdown.signal.aborted) break;
      throw err;
    }
    const trigger = polled.trigger;
    if (!trigger) continue;
    if (trigger.offer) {
      // The runner decides on offers itself: it has a free slot, so it takes the task.
      say(`offered ${trigger.offer.id}: accepting`);
      await api.expect("POST", `/api/runner/offers/${trigger.offer.id}`, [200, 409], { accept: true });
      continue;
    }
    if (!trigger.run) continue;
    say(`${trigger.type}: run ${trigger.run.id} (${trigger.run.prompt.split("\n")[0]}) on ${trigger.run.branch}`);
    const job = workOnRun(trigger.run, opts).catch((err) => say(`run ${trigger.run!.id} crashed: ${(err as Error).message}`)).finally(() => running.delete(job));
    running.add(job);
  }
  await Promise.all(running);
  await api.call("POST", "/api/runner/close").catch(() => {});
}

main().then(
  () => process.exit(exitCode),
  (err) => { say(`stopped: ${(err as Error).message}`); process.exit(1); },
);
