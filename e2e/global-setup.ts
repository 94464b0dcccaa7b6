// Starts the real app for the specs: a fresh database, the demo seed with a known
// password, `next start` and the workers, all torn down afterwards.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { GithubDouble } from "@/test/helpers/github-double";
import { SlackDouble } from "@/test/helpers/slack-double";
import { E2E_SLACK_TOKEN } from "./helpers";

const root = join(import.meta.dirname, "..");
const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try { await c.query(sql); } finally { await c.end(); }
}

async function waitForHealth(url: string, children: ChildProcess[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (children.some((c) => c.exitCode !== null)) throw new Error("the app exited during start-up");
    try {
      if ((await fetch(url)).ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

export default async function globalSetup() {
  const id = `${process.pid}_${randomBytes(3).toString("hex")}`;
  const dbName = `rm_e2e_${id}`;
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(join(tmpdir(), "ringmaster-e2e-"));
  const port = process.env.E2E_PORT ?? "3210";
  // GitHub is out of reach here: a local double speaking its REST API stands in, its "remote"
  // repositories bare ones under E2E_GITHUB_REMOTES (specs create them there).
  const github = await new GithubDouble(mkdtempSync(join(tmpdir(), "ringmaster-e2e-remotes-"))).start();
  // Slack too: its Web API answered by a local double that knows one bot token and two people.
  const slack = await new SlackDouble().start();
  slack.tokens.add(E2E_SLACK_TOKEN);
  slack.users.set("U0ALICE", { name: "alice", real_name: "Alice Doe" });
  const password = `e2e-${randomBytes(6).toString("hex")}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Stand-ins for the CLIs a spec saves a profile of (gemini, codex, aider) where they are not
    // installed: a profile of a CLI missing on the server is refused. Last, so an installed one wins.
    PATH: `${process.env.PATH}:${join(root, "test", "fixtures", "agents", "bin")}`,
    NODE_ENV: "production",
    DATABASE_URL: u.toString(),
    REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    REDIS_PREFIX: `rme2e-${id}`,
    AUTH_SECRET: randomBytes(32).toString("hex"),
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    DEMO_PASSWORD: password,
    LOG_LEVEL: "warn",
    GITHUB_API_URL: github.url,
    GITHUB_GIT_URL: join(github.remotesRoot, "{owner}", "{repo}.git"),
    SLACK_API_URL: slack.url,
  };
  await admin(`CREATE DATABASE "${dbName}"`);
  const tsx = join(root, "node_modules", ".bin", "tsx");
  for (const script of ["scripts/db/migrate.ts", "prisma/seed.ts"]) {
    const r = spawnSync(tsx, [script], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
    if (r.status !== 0) throw new Error(`${script} failed`);
  }
  const children = [
    spawn(process.execPath, ["--import", "tsx", "scripts/web.ts", "-p", port, "-H", "127.0.0.1"], { cwd: root, env, stdio: "inherit" }),
    spawn(process.execPath, ["--import", "tsx", "workers/main.ts"], { cwd: root, env, stdio: "inherit" }),
  ];
  process.env.E2E_EMAIL = "demo@ringmaster.local";
  process.env.E2E_PASSWORD = password;
  process.env.E2E_DATA_DIR = dataDir;
  // For a spec to read what the app stored where the page cannot show it (e2e/slack-intake.spec.ts).
  process.env.E2E_DATABASE_URL = u.toString();
  process.env.E2E_GITHUB_REMOTES = github.remotesRoot;
  const teardown = async () => {
    await Promise.all(children.map((c) => c.exitCode !== null ? null : new Promise((r) => { c.once("exit", r); c.kill("SIGTERM"); })));
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await github.stop();
    await slack.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(github.remotesRoot, { recursive: true, force: true });
  };
  // Playwright runs no teardown when the set-up throws: a web process that never answered (a
  // missing build) must not leave the workers running, holding the terminal's pipe open.
  try {
    await waitForHealth(`http://127.0.0.1:${port}/api/health`, children);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
