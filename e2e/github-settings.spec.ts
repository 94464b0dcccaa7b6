import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { sign } from "@octokit/webhooks-methods";
import { makeRepo, screenshots, signIn } from "./helpers";

// A "remote" on the GitHub double (e2e/global-setup.ts): a bare repository it reads branches from.
function githubRemote(repo: string): string {
  const bare = join(process.env.E2E_GITHUB_REMOTES!, "acme", `${repo}.git`);
  mkdirSync(join(process.env.E2E_GITHUB_REMOTES!, "acme"), { recursive: true });
  execFileSync("git", ["clone", "--bare", "-q", makeRepo(), bare]);
  return execFileSync("git", ["rev-parse", "main"], { cwd: bare }).toString().trim();
}

test("a GitHub project connects from its settings, tests the connection, shows the webhook and its deliveries", async ({ page }) => {
  test.setTimeout(90_000);
  const repo = `widgets-${Date.now().toString(36)}`;
  const head = githubRemote(repo);
  await signIn(page);
  await page.getByRole("link", { name: "New project" }).click();
  await page.getByLabel("Name").fill("GitHub e2e");
  await page.getByRole("combobox", { name: "Repository" }).selectOption("github");
  await page.getByLabel("Owner").fill("acme");
  await page.getByRole("textbox", { name: "Repository", exact: true }).fill(repo);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { name: "GitHub e2e" })).toBeVisible();
  await page.getByRole("link", { name: "Settings" }).click();

  const github = page.getByRole("region", { name: "GitHub" });
  await expect(github).toContainText("Not connected");
  await expect(github.getByTestId("webhook-url")).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/api\/webhooks\/github$/);
  await screenshots(page, "github-not-connected");

  // A bad token is refused by field, and the form keeps the rest.
  const form = page.getByRole("form", { name: "Connect GitHub" });
  await form.getByLabel(/^Token/).fill("short");
  await form.getByRole("button", { name: "Generate" }).click();
  const secret = await form.getByLabel("Webhook secret").inputValue();
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  await form.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(form.locator(".field.invalid")).toContainText("Token is not a GitHub token");
  await expect(form.getByLabel("Webhook secret")).toHaveValue(secret);
  await screenshots(page, "github-connect-error");

  await form.getByLabel(/^Token/).fill("ghp_0123456789abcdefghijklmnopqrstuvwxyz");
  await form.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(github).toContainText("ringmaster-bot");
  await expect(github).toContainText("set (not shown again)");
  await expect(github.getByTestId("webhook-secret")).toHaveText(secret);
  await expect(page.getByRole("form", { name: "Connect GitHub" })).toHaveCount(0);

  await github.getByRole("button", { name: "Test connection" }).click();
  await expect(github.getByTestId("branch-head")).toContainText(`main is at ${head.slice(0, 10)} “init”`);
  await expect(github).toContainText(`acme/${repo} is reachable`);

  // The login people mention: a bad one is refused beside its field and kept; a good one is saved.
  await expect(github).toContainText("no mentions");
  const mentions = github.getByRole("form", { name: "GitHub mentions" });
  await mentions.getByLabel(/^Bot login for mentions/).fill("ringmaster--bot");
  await mentions.getByRole("button", { name: "Save" }).click();
  await expect(mentions.locator(".field.invalid")).toContainText("Bot login for mentions must be a GitHub login");
  await expect(mentions.getByLabel(/^Bot login for mentions/)).toHaveValue("ringmaster--bot");
  await mentions.getByLabel(/^Bot login for mentions/).fill("@ringmaster-bot");
  await mentions.getByRole("button", { name: "Save" }).click();
  await expect(github.locator("dd").filter({ hasText: /^@ringmaster-bot$/ })).toBeVisible();
  await expect(mentions).toContainText("Assign an issue to @ringmaster-bot");
  await screenshots(page, "github-mentions");

  // GitHub sends a delivery signed with the secret: it shows in the list with its status.
  const payload = JSON.stringify({ ref: "refs/heads/main", repository: { full_name: `acme/${repo}`, name: repo, owner: { login: "acme" } }, sender: { login: "octocat" } });
  const delivered = await page.request.post("/api/webhooks/github", {
    headers: { "content-type": "application/json", "x-github-event": "push", "x-github-delivery": `e2e-${repo}`, "x-hub-signature-256": await sign(secret, payload) },
    data: payload,
  });
  expect(delivered.status()).toBe(202);
  const deliveries = github.getByRole("table", { name: "Recent deliveries" });
  await expect(async () => {
    await github.getByRole("button", { name: "Refresh" }).click();
    await expect(deliveries).toContainText(`e2e-${repo}`, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(deliveries.getByRole("row").filter({ hasText: `e2e-${repo}` })).toContainText(/push.*(processed|ignored|received)/);
  await screenshots(page, "github-connected");
});
