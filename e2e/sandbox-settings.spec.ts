import { expect, test } from "@playwright/test";
import { hydrated, screenshots, signIn, createProject } from "./helpers";

test("agent network settings: presets and own rules with a field error per line; the unsandboxed opt-in warns on the project page", async ({ page }) => {
  // The workers' sandbox self-test may report late on a loaded machine (see below).
  test.setTimeout(120_000);
  await signIn(page);
  await createProject(page, "Sandboxed e2e");
  await expect(page.getByTestId("sandbox-notice")).toHaveCount(0);

  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Sandboxed e2e: settings" })).toBeVisible();
  // The workers started with the app prove the sandbox at start-up; the page shows their verdict once reported.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("sandbox-notice")).toContainText("Agents run in the sandbox: the workers' self-test passed", { timeout: 2000 });
  }).toPass({ timeout: 90_000 });
  // The loop above ends on a fresh reload: the form below must be hydrated before it is used.
  await hydrated(page);
  await expect(page.getByLabel("Network mode")).toHaveValue("allow-list");
  await page.getByLabel("npm registry").check();
  await page.getByLabel("GitHub").check();
  await page.getByLabel("Allowed hosts, one per line").fill("*.internal.example.com\nnot a host at all\nGET,HEAD mirror.example.org");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.locator(".field.invalid")).toContainText("Allowed hosts, line 2 must be `host` or `METHODS host`");
  await page.getByLabel("Allowed hosts, one per line").fill("*.internal.example.com\nGET,HEAD mirror.example.org");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(page.getByLabel("Allowed hosts, one per line")).toHaveValue("*.internal.example.com\nGET,HEAD mirror.example.org");
  await expect(page.getByLabel("npm registry")).toBeChecked();
  await screenshots(page, "settings-network");

  await page.getByLabel(/Run agents unsandboxed/).check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await page.getByRole("link", { name: "Back to project" }).click();
  await expect(page.getByTestId("sandbox-notice")).toContainText("An admin opted this project into unsandboxed runs");
  await screenshots(page, "project-unsandboxed-warning");
});
