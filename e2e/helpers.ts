import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";

/** The bot token the Slack double of the specs accepts. */
export const E2E_SLACK_TOKEN = "xoxb-e2e-0000-slackdoubletoken";

export async function signIn(page: Page, email = process.env.E2E_EMAIL!, password = process.env.E2E_PASSWORD!) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await hydrated(page);
}

/**
 * Waits until a dashboard page loaded afresh (goto, reload) is hydrated: the server's HTML is
 * visible before React attaches its handlers, and a click or a change made in between is lost
 * (a form even submits natively). The live indicator says "live" only once the client opened
 * its stream, which is after hydration. Client-side navigations need no wait.
 */
export async function hydrated(page: Page) {
  await expect(page.getByTestId("live-status")).toHaveText("live");
}

/** A fresh local git repository on `main` under a server's repository root (its data folder's repos/; the shared app's by default). */
export function makeRepo(dataDir = process.env.E2E_DATA_DIR!): string {
  const root = join(dataDir, "repos");
  mkdirSync(root, { recursive: true });
  const dir = join(mkdtempSync(join(root, "e2e-")), "app");
  const env = { ...process.env, GIT_AUTHOR_NAME: "e2e", GIT_AUTHOR_EMAIL: "e2e@localhost", GIT_COMMITTER_NAME: "e2e", GIT_COMMITTER_EMAIL: "e2e@localhost" };
  execFileSync("git", ["init", "-q", "-b", "main", dir], { env });
  writeFileSync(join(dir, "README.md"), "# e2e\n");
  execFileSync("git", ["add", "-A"], { cwd: dir, env });
  execFileSync("git", ["commit", "-q", "-m", "init"], { cwd: dir, env });
  return dir;
}

/** Screenshots of a page at desktop and phone width, saved as test artifacts. */
export async function screenshots(page: Page, name: string) {
  const size = page.viewportSize();
  await page.screenshot({ path: `test-results/screenshots/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `test-results/screenshots/${name}-phone.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** Creates a project on a fresh local repository through the New project form and waits for its page. */
export async function createProject(page: Page, name: string) {
  await page.getByRole("link", { name: "New project" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Repository path").fill(makeRepo());
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
}
