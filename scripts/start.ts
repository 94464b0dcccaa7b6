// `npm start`: find or start Postgres and Redis, migrate, seed the demo on first start,
// build the web app when its sources changed, then run web + workers until Ctrl-C.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, statSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ensureSandboxTools } from "./sandbox-tools";
import { findServices, loadDotEnv, persistentSecret, root, SetupError } from "./services";

const dev = process.argv.includes("--dev");
const say = (line: string) => console.log(`[ringmaster] ${line}`);

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, what: string): void {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: "inherit" });
  if (r.status !== 0) throw new SetupError(`${what} failed (exit ${r.status ?? r.signal})`);
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).filter((n) => n !== "generated").map((n) => newestMtime(join(path, n))));
}

function buildIsStale(): boolean {
  const id = join(root, ".next", "BUILD_ID");
  if (!existsSync(id)) return true;
  const built = statSync(id).mtimeMs;
  return ["app", "lib", "auth.ts", "next.config.ts", "package-lock.json"].some((p) => newestMtime(join(root, p)) > built);
}

async function main() {
  loadDotEnv();
  const services = await findServices(say);
  ensureSandboxTools(say);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    AUTH_SECRET: process.env.AUTH_SECRET ?? persistentSecret("auth-secret"),
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? persistentSecret("encryption-key"),
    NODE_ENV: dev ? "development" : "production",
  };
  const tsx = join(root, "node_modules", ".bin", "tsx");
  const next = join(root, "node_modules", ".bin", "next");
  run(tsx, ["scripts/db/generate.ts"], env, "prisma generate");
  run(tsx, ["scripts/db/migrate.ts"], env, "database migration");
  run(tsx, ["prisma/seed.ts"], env, "demo seed");
  if (!dev && buildIsStale()) {
    say("building the web app (first start or changed sources)…");
    run(next, ["build"], env, "next build");
  }

  const port = process.env.PORT ?? "3000";
  const children: ChildProcess[] = [
    spawn(process.execPath, ["--import", "tsx", "scripts/web.ts", "-p", port, ...(dev ? ["--dev"] : [])], { cwd: root, env, stdio: "inherit" }),
    spawn(process.execPath, ["--import", "tsx", "workers/main.ts"], { cwd: root, env, stdio: "inherit" }),
  ];
  say(`web on http://localhost:${port} · workers running · Ctrl-C stops everything`);

  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    say("stopping web and workers…");
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
    const force = setTimeout(() => children.forEach((c) => c.exitCode === null && c.kill("SIGKILL")), 15_000);
    Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once("exit", r))))).then(() => {
      clearTimeout(force);
      services.stop();
      process.exit(code);
    });
  };
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));
  for (const c of children) c.once("exit", (code) => stop(code ?? 1));
}

main().catch((err) => {
  console.error(err instanceof SetupError ? `[ringmaster] ${err.message}` : err);
  process.exit(1);
});
