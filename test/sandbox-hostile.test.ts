import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { networkInterfaces } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";
import { PROXY_PROBE_JS } from "@/lib/sandbox/proxy-probe";

// Secrets this process holds, as a worker would; none may reach the agent by any road.
const CANARY = `canary-${Math.random().toString(36).slice(2)}`;
Object.assign(process.env, { AUTH_SECRET: `${CANARY}-auth-secret-padding-padding`, ENCRYPTION_KEY: "ab".repeat(32) });

// A stand-in for a host on the allow-list: this machine's non-loopback address, another host to the guard.
const otherHostAddress = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)!.address;
let allowedHost: Server;
let allowedPort = 0;
beforeAll(async () => {
  allowedHost = createServer((_req, res) => res.end("allowed-host-answer"));
  await new Promise<void>((r) => allowedHost.listen(0, "0.0.0.0", r));
  allowedPort = (allowedHost.address() as { port: number }).port;
});
afterAll(() => new Promise((r) => allowedHost.close(r)));

const port = (url: string, fallback: number) => Number(new URL(url).port || fallback);

/** Each attempt prints `<name>: blocked` when it fails and `<name>: ESCAPED` when it works. */
function hostileScript(p: { dataDir: string; otherRepo: string; repo: string; workerPid: number }) {
  const env = getEnv();
  const pg = port(env.DATABASE_URL, 5432);
  const redis = port(env.REDIS_URL, 6379);
  const web = port(env.APP_URL, 80);
  const proxied = (request: string, want = " 200 ") => `${process.execPath} -e '${PROXY_PROBE_JS}' '${request}' '${want}'`;
  const attempt = (name: string, escaped: string) => `if ${escaped}; then echo "${name}: ESCAPED"; else echo "${name}: blocked"; fi`;
  return [
    attempt("env secrets", `env | grep -qE '${CANARY}|ENCRYPTION_KEY|DATABASE_URL|REDIS_URL'`),
    attempt("data folder files", `cat ${p.dataDir}/secret.txt 2>/dev/null | grep -q ${CANARY} || ls ${p.dataDir} 2>/dev/null | grep -qv '^worktrees$'`),
    attempt("worker environ", `cat /proc/${p.workerPid}/environ 2>/dev/null | grep -q ${CANARY} || cat /proc/[0-9]*/environ 2>/dev/null | grep -q ${CANARY}`),
    attempt("other processes", `cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' ' | grep -qE 'vi[t]est|postgre[s]: |redis-serve[r] '`),
    attempt("write outside worktree", `touch /usr/escaped 2>/dev/null || touch ${p.repo}/escaped 2>/dev/null || touch ${p.repo}/.git/hooks/post-checkout 2>/dev/null || echo x >> ${p.repo}/.git/config 2>/dev/null`),
    // A failed commit-tree counts as an escape too, so this attempt cannot pass by breaking itself.
    attempt("move the base branch", `! c=$(GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@a.test GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@a.test git commit-tree 'HEAD^{tree}' -m planted) || git update-ref refs/heads/main "$c" 2>/dev/null`),
    attempt("other project's repository", `ls ${p.otherRepo} 2>/dev/null | grep -q .`),
    attempt("postgres direct", `socat -u OPEN:/dev/null TCP:127.0.0.1:${pg},connect-timeout=2 2>/dev/null`),
    attempt("redis direct", `socat -u OPEN:/dev/null TCP:127.0.0.1:${redis},connect-timeout=2 2>/dev/null`),
    attempt("web direct", `socat -u OPEN:/dev/null TCP:127.0.0.1:${web},connect-timeout=2 2>/dev/null`),
    attempt("postgres via proxy", proxied(`CONNECT 127.0.0.1:${pg} HTTP/1.1`)),
    attempt("redis via proxy", proxied(`CONNECT localhost:${redis} HTTP/1.1`)),
    attempt("web via proxy", proxied(`GET http://localhost:${web}/ HTTP/1.1`)),
    attempt("off-list host direct", `socat -u OPEN:/dev/null TCP:93.184.215.14:443,connect-timeout=2 2>/dev/null`),
    attempt("off-list host via proxy", proxied("CONNECT example.org:443 HTTP/1.1")),
    attempt("off-list host without proxy variables", `env -u HTTPS_PROXY -u HTTP_PROXY -u ALL_PROXY socat -u OPEN:/dev/null TCP:example.org:443,connect-timeout=2 2>/dev/null`),
    `if ${proxied(`GET http://${otherHostAddress}:${allowedPort}/ HTTP/1.1`, "allowed-host-answer")}; then echo "allowed host: reached"; else echo "allowed host: unreachable"; fi`,
  ].join("\n");
}

describe("a hostile agent in the sandbox", () => {
  it("fails at every escape, and its refused hosts are counted on the run", async () => {
    const { team, project, repoPath } = await createTeamWithProject({ cooldownMs: 0 });
    const other = await createTeamWithProject({ cooldownMs: 0 });
    const dataDir = resolve(getEnv().DATA_DIR);
    writeFileSync(join(dataDir, "secret.txt"), CANARY);
    const profile = await getDb().agentProfile.create({
      data: { teamId: team.id, name: "hostile", adapter: "shell", commandTemplate: hostileScript({ dataDir, otherRepo: other.repoPath, repo: repoPath, workerPid: process.pid }) },
    });
    // Even an admin who lists the server's own loopback addresses opens none of its ports.
    await getDb().projectSettings.update({
      where: { projectId: project.id },
      data: { executorProfileId: profile.id, networkMode: "allow-list", egressRules: ["127.0.0.1", "localhost", otherHostAddress] },
    });
    await addPrompt(project.id, { number: 1, title: "Escape", body: "" });

    const { run } = await tickAndRun(project.id);
    const log = (await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
    const verdicts = log.split("\n").filter((l) => /: (blocked|ESCAPED|reached|unreachable)$/.test(l));
    expect(verdicts).toEqual([
      "env secrets: blocked", "data folder files: blocked", "worker environ: blocked", "other processes: blocked",
      "write outside worktree: blocked", "move the base branch: blocked", "other project's repository: blocked",
      "postgres direct: blocked", "redis direct: blocked", "web direct: blocked",
      "postgres via proxy: blocked", "redis via proxy: blocked", "web via proxy: blocked",
      "off-list host direct: blocked", "off-list host via proxy: blocked", "off-list host without proxy variables: blocked",
      "allowed host: reached",
    ]);
    expect(run!.status).toBe("succeeded");
    expect(run!.egress).toEqual({
      allowed: { [otherHostAddress]: 1 },
      blocked: { "127.0.0.1": 1, localhost: 2, "example.org": 1 },
      recorded: ["agent"], // the report key that makes a retried report count once
    });
  });
});
