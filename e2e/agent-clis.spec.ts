import { expect, test } from "@playwright/test";
import { screenshots, signIn } from "./helpers";

test("the Agents page says which agent CLIs this machine has, and the form offers the new adapters with their modes", async ({ page }) => {
  await signIn(page);
  await page.goto("/profiles");
  const clis = page.getByRole("region", { name: "Agent CLIs on this machine" });
  await expect(clis.locator("tbody tr")).toHaveCount(11);
  for (const [adapter, install] of [["qwen", "@qwen-code/qwen-code"], ["opencode", "opencode-ai"], ["copilot", "@github/copilot"], ["pi", "@mariozechner/pi-coding-agent"], ["cline", "cline"], ["kilo", "@kilocode/cli"], ["droid", "droid"]]) {
    const row = clis.locator(`tr[data-cli="${adapter}"]`);
    // Found: its path and version; missing: how to install it.
    await expect(row.locator("td").nth(2)).toContainText(new RegExp(`/${adapter}$|not installed: npm install -g ${install.replace(/[/.]/g, "\\$&")}`));
  }
  await screenshots(page, "agent-clis");

  const form = page.getByRole("form", { name: "New profile" });
  await form.getByLabel(/^Adapter/).selectOption("qwen");
  await expect(form.locator("label.field").filter({ hasText: "Permission mode" })).toContainText("yolo allows every tool without asking");
  await form.getByLabel(/^Adapter/).selectOption("pi");
  await expect(form.locator("label.field").filter({ hasText: "Permission mode" })).toContainText("all allows every built-in tool: read, edit, write and bash (tests, builds)");
  await form.getByLabel(/^Adapter/).selectOption("opencode");
  await expect(form.locator("label.field").filter({ hasText: "Permission mode" })).toContainText("auto allows every tool its config does not deny");
  await form.getByLabel(/^Adapter/).selectOption("cline");
  await expect(form.locator("label.field").filter({ hasText: "Permission mode" })).toContainText("auto-approve allows every tool without asking");
  await form.getByLabel(/^Adapter/).selectOption("kilo");
  await expect(form.locator("label.field").filter({ hasText: "Permission mode" })).toContainText("auto allows every tool its config does not deny");
  await form.scrollIntoViewIfNeeded();
  await screenshots(page, "agent-clis-form");
});
