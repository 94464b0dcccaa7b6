import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { POST as register } from "@/app/api/runner/agents/route";
import { GET as me } from "@/app/api/runner/me/route";
import { POST as ping } from "@/app/api/runner/ping/route";
import { POST as close } from "@/app/api/runner/close/route";
import { GET as poll } from "@/app/api/runner/poll/route";
import { POST as answer } from "@/app/api/runner/offers/[id]/route";
import { POST as heartbeat } from "@/app/api/runner/runs/[id]/heartbeat/route";
import { POST as log } from "@/app/api/runner/runs/[id]/log/route";
import { POST as complete } from "@/app/api/runner/runs/[id]/complete/route";
import { GET as baseBundle, POST as runBundle } from "@/app/api/runner/runs/[id]/bundle/route";
import { GET as mcpGet, POST as mcpPost } from "@/app/api/mcp/route";
import { GET as thread } from "@/app/api/threads/[id]/route";
import { getDb } from "@/lib/db";
import { createTeamWithProject, waitUntil } from "./fixtures";
import { runnerToken } from "./runners";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const routes: Array<[string, RegExp, Handler]> = [
  ["POST", /^\/api\/runner\/agents$/, register as Handler], ["GET", /^\/api\/runner\/me$/, me as Handler],
  ["POST", /^\/api\/runner\/ping$/, ping as Handler], ["POST", /^\/api\/runner\/close$/, close as Handler],
  ["GET", /^\/api\/runner\/poll$/, poll as Handler], ["POST", /^\/api\/runner\/offers\/([^/]+)$/, answer as Handler],
  ["POST", /^\/api\/runner\/runs\/([^/]+)\/heartbeat$/, heartbeat as Handler], ["POST", /^\/api\/runner\/runs\/([^/]+)\/log$/, log as Handler],
  ["POST", /^\/api\/runner\/runs\/([^/]+)\/complete$/, complete as Handler],
  ["GET", /^\/api\/runner\/runs\/([^/]+)\/bundle$/, baseBundle as Handler], ["POST", /^\/api\/runner\/runs\/([^/]+)\/bundle$/, runBundle as Handler],
  // What a runner's agent reaches with its run's token: the MCP endpoint, and the API as that token.
  ["POST", /^\/api\/mcp$/, mcpPost as Handler], ["GET", /^\/api\/mcp$/, mcpGet as Handler], ["GET", /^\/api\/threads\/([^/]+)$/, thread as Handler],
];

/**
 * The runner API's real route handlers behind a plain Node HTTP server, so a test can run the
 * real runner process against them (and stop and restart "the server" under it) without a
 * Next.js build; the Playwright spec e2e/runners.spec.ts covers the same against `next start`.
 */
export async function startRunnerApi(port = 0, opts: { before?: (request: string) => Promise<void> } = {}): Promise<{ url: string; port: number; requests: string[]; stop: () => Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, "http://127.0.0.1");
    requests.push(`${req.method} ${url.pathname}`);
    // A test's hold on a request (answered only once the promise settles).
    await opts.before?.(`${req.method} ${url.pathname}`);
    const route = routes.find(([method, path]) => method === req.method && path.test(url.pathname));
    if (!route) { res.writeHead(404).end(); return; }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const request = new Request(url, {
      method: req.method, headers: req.headers as Record<string, string>, signal: abort.signal,
      body: req.method === "GET" ? undefined : Buffer.concat(chunks),
    });
    const id = route[1].exec(url.pathname)![1];
    const response = await route[2](request, { params: Promise.resolve((id ? { id } : {}) as Record<string, string>) });
    // Bytes, not text: a git bundle passes through unchanged.
    res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json" }).end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`, port: bound, requests,
    stop: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** The real runner process, with nothing of the server's configuration in its environment. */
export function startRunnerProcess(url: string, token: string, args: string[] = [], env: Record<string, string> = {}): ChildProcess & { output: () => string; workDir: string } {
  let output = "";
  const workDir = mkdtempSync(join(tmpdir(), "rm-runner-"));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "runner/main.ts", "--url", url, "--work-dir", workDir, ...args], {
    cwd: join(import.meta.dirname, "..", ".."),
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, RINGMASTER_RUNNER_TOKEN: token, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c: Buffer) => { output += c.toString(); });
  child.stderr!.on("data", (c: Buffer) => { output += c.toString(); });
  return Object.assign(child, { output: () => output, workDir });
}

/** A project whose runs go to runners, its loop running. */
export async function runnerProject() {
  const fixture = await createTeamWithProject({ maxParallel: 1, cooldownMs: 0 });
  await getDb().projectSettings.update({ where: { projectId: fixture.project.id }, data: { useRunners: true } });
  await getDb().loopState.update({ where: { projectId: fixture.project.id }, data: { mode: "running" } });
  return fixture;
}

/** A real runner process of the team against the runner API, registered; both stopped by `stops`. */
export async function startRegisteredRunner(teamId: string, stops: Array<() => Promise<unknown>>) {
  const api = await startRunnerApi();
  stops.push(() => api.stop());
  const runner = startRunnerProcess(api.url, await runnerToken(teamId));
  stops.push(() => new Promise((r) => { if (runner.exitCode !== null) return r(null); runner.once("exit", r); runner.kill("SIGKILL"); }));
  await waitUntil("the runner to register", async () => runner.output().includes("registered as")).catch((err: Error) => { throw new Error(`${err.message}\nrunner:\n${runner.output()}`); });
  return runner;
}
