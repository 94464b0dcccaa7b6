// `npm test`: the whole suite — unit, integration (real Postgres and Redis) and e2e
// (real web app and workers in Chromium) — ending with one line `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureSandboxTools } from "./sandbox-tools";
import { findServices, loadDotEnv, root, SetupError } from "./services";
import { ensureChromium } from "./chromium";
import { type Counts, playwrightCounts, summaryLines, vitestCounts } from "./test-report";

const say = (line: string) => console.log(`[test] ${line}`);
const outDir = join(root, "test-results");

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): number {
  return spawnSync(cmd, args, { cwd: root, env, stdio: "inherit" }).status ?? 1;
}

async function main() {
  loadDotEnv();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const chromium = ensureChromium(say);
  ensureSandboxTools(say);
  const services = await findServices(say, "ringmaster_test");
  const bin = (name: string) => join(root, "node_modules", ".bin", name);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEST_DATABASE_ADMIN_URL: services.adminUrl,
    REDIS_URL: services.redisUrl,
    DATABASE_URL: services.databaseUrl,
    CHROMIUM_PATH: chromium,
  };
  const total: Counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  const add = (c: Counts) => { total.passed += c.passed; total.failed += c.failed; total.skipped += c.skipped; total.failures.push(...c.failures); };
  try {
    if (run(bin("tsx"), ["scripts/db/generate.ts"], env) !== 0) throw new SetupError("prisma generate failed");

    // The type checker and the linter count as one check each.
    for (const [name, args] of [["typecheck", ["tsc", "--noEmit"]], ["lint", ["eslint", "."]]] as const) {
      say(`${name}…`);
      const ok = run(bin(args[0]), [...args.slice(1)], env) === 0;
      say(`${name} ${ok ? "passed" : "FAILED"}`);
      add({ passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, failures: ok ? [] : [name] });
    }

    const vitestJson = join(outDir, "vitest.json");
    const vitestExit = run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`], env);
    add(vitestCounts(vitestJson, root, vitestExit));

    say("building the web app for the e2e specs…");
    if (run(bin("next"), ["build"], { ...env, NODE_ENV: "production" }) !== 0) {
      add({ passed: 0, failed: 1, skipped: 0, failures: ["next build"] });
    } else {
      const pwJson = join(outDir, "playwright.json");
      run(bin("playwright"), ["test"], { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson });
      add(playwrightCounts(pwJson));
    }
  } finally {
    services.stop();
  }
  for (const line of summaryLines(total)) console.log(line);
  process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err instanceof SetupError ? `[test] ${err.message}` : err);
  console.log("0 passed, 1 failed");
  process.exit(1);
});
