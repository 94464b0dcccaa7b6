// The first user of a fresh install. This spec starts its own web server on a database
// without users, so the shared app (with its seeded demo owner) stays as it is.
import { expect, test } from "@playwright/test";
import { useFreshApp } from "./fresh-app";

const web = useFreshApp(1, "fresh");
const { base } = web;

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
