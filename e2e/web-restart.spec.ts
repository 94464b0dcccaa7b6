// Restarting the web process under an open dashboard, as a deploy does: SIGTERM, then a new
// process on the same port. The old one must end by itself although the page holds its event
// stream open, and the page must go on live on the new one without a reload.
import { expect, test } from "@playwright/test";
import { useFreshApp } from "./fresh-app";
import { makeRepo } from "./helpers";

const web = useFreshApp(3, "restart");
const { base } = web;

test("the web process stops on SIGTERM with a dashboard open, and the page goes on live on the next one", async ({ page }) => {
  await page.goto(`${base}/signup`);
  await page.getByLabel("Your name").fill("Rae Restart");
  await page.getByLabel("Email").fill("rae@example.test");
  await page.getByLabel("Password").fill("a sturdy first password");
  await page.getByLabel("Team name").fill("Deployers");
  await page.getByRole("button", { name: "Create account and team" }).click();
  await page.waitForURL((u) => u.pathname === "/");
  const created = await page.request.post(`${base}/api/projects`, { headers: { origin: base }, data: { name: "Before the restart", repoKind: "local", repoPath: makeRepo(web.dataDir), baseBranch: "main" } });
  expect(created.status(), await created.text()).toBe(201);
  const { project } = await created.json();
  await page.reload();
  await expect(page.getByRole("link", { name: "Before the restart" })).toBeVisible();
  await expect(page.getByTestId("live-status")).toHaveText("live");

  // The open event stream does not hold the old process: it ends by itself, not killed.
  expect(await web.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  await expect(page.getByTestId("live-status")).toHaveText("reconnecting…");

  await web.start();
  await expect(page.getByTestId("live-status")).toHaveText("live");
  // Still signed in, and live: a change made now reaches the page without a reload.
  const renamed = await page.request.patch(`${base}/api/projects/${project.id}`, { headers: { origin: base }, data: { name: "After the restart" } });
  expect(renamed.status()).toBe(200);
  await expect(page.getByRole("link", { name: "After the restart" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/web-restart-live.png", fullPage: true });
});
