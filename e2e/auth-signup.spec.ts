// The first user of a fresh install. This spec starts its own web server on a database
// without users, so the shared app (with its seeded demo owner) stays as it is.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import { expect, test } from "@playwright/test";

const root = join(import.meta.dirname, "..");
const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const port = Number(process.env.E2E_PORT ?? 3210) + 1;
const base = `http://127.0.0.1:${port}`;
const dbName = `rm_e2e_fresh_${process.pid}_${randomBytes(3).toString("hex")}`;
let server: ChildProcess;

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try { await c.query(sql); } finally { await c.end(); }
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  await admin(`CREATE DATABASE "${dbName}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const env = {
    ...process.env, NODE_ENV: "production", DATABASE_URL: u.toString(), AUTH_SECRET: randomBytes(32).toString("hex"),
    APP_URL: base, REDIS_PREFIX: `rme2e-fresh-${process.pid}`, LOG_LEVEL: "warn", TICK_SCHEDULES: "off",
  } as NodeJS.ProcessEnv;
  const migrated = spawnSync(join(root, "node_modules", ".bin", "tsx"), ["scripts/db/migrate.ts"], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
  if (migrated.status !== 0) throw new Error("migrating the fresh database failed");
  server = spawn(process.execPath, ["--import", "tsx", "scripts/web.ts", "-p", String(port), "-H", "127.0.0.1"], { cwd: root, env, stdio: "inherit" });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try { if ((await fetch(`${base}/api/health`)).status < 600) break; } catch { /* starting */ }
    if (Date.now() > deadline) throw new Error("fresh app did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) await new Promise((r) => { server.once("exit", r); server.kill("SIGTERM"); });
  await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
});

test("the first person signs up, owns the first team, and sign-up closes behind them", async ({ page, browser }) => {
  await page.goto(`${base}/login`);
  await page.getByRole("link", { name: "Create the first account" }).click();
  await expect(page.getByRole("heading", { name: "Set up Ringmaster" })).toBeVisible();

  // Validation messages sit next to their fields.
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account and team" }).click();
  await expect(page.locator("#f-email-error")).toHaveText("must be a valid email address");
  await expect(page.locator("#f-password-error")).toHaveText("must be at least 10 characters");
  await expect(page.locator("#f-teamName-error")).toHaveText("is required");
  await page.screenshot({ path: "test-results/screenshots/signup-errors.png", fullPage: true });

  await page.getByLabel("Your name").fill("Ada Owner");
  await page.getByLabel("Email").fill("ada@example.test");
  await page.getByLabel("Password").fill("a sturdy first password");
  await page.getByLabel("Team name").fill("Analytical Engines");
  await page.getByRole("button", { name: "Create account and team" }).click();
  await page.waitForURL((u) => u.pathname === "/");
  await expect(page.locator("header.top")).toBeVisible();
  await expect(page.locator("header.top")).toContainText("Analytical Engines");

  await page.goto(`${base}/team`);
  await expect(page.getByTestId("members")).toContainText("Ada Owner");
  await expect(page.getByLabel("Role of ada@example.test")).toHaveValue("owner");

  const stranger = await browser.newPage();
  await stranger.goto(`${base}/signup`);
  await expect(stranger.getByRole("heading", { name: "Sign-up is closed" })).toBeVisible();
  await stranger.screenshot({ path: "test-results/screenshots/signup-closed.png" });
  await stranger.close();
});
