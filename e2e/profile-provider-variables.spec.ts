import { expect, test } from "@playwright/test";
import { screenshots, signIn } from "./helpers";

test("the profile form names the chosen CLI's provider variables under the adapter, and follows a change of adapter", async ({ page }) => {
  await signIn(page);
  await page.goto("/profiles");
  const form = page.getByRole("form", { name: "New profile" });
  const adapter = form.locator("label.field").filter({ has: page.getByLabel(/^Adapter/) });
  await expect(form.getByLabel(/^Adapter/)).toHaveValue("claude");
  await expect(adapter).toContainText("Provider variables: ANTHROPIC_API_KEY (the Anthropic API key); ANTHROPIC_BASE_URL (another Messages API endpoint, e.g. a gateway)");
  await form.getByLabel(/^Adapter/).selectOption("codex");
  await expect(adapter).toContainText("Provider variables: OPENAI_API_KEY (the OpenAI API key); OPENAI_BASE_URL (another Responses API endpoint)");
  await expect(adapter).not.toContainText("ANTHROPIC_API_KEY");
  await form.getByLabel(/^Adapter/).selectOption("gemini");
  await expect(adapter).toContainText("Provider variables: GEMINI_API_KEY (the Gemini API key)");
  await form.getByLabel(/^Adapter/).selectOption("droid");
  await expect(adapter).toContainText("DROID_SETTINGS_CONTENT (droid's settings.json with customModels: a model of one's own, no Factory account, written to ~/.factory/settings.json)");
  await form.getByLabel(/^Adapter/).selectOption("cline");
  await expect(adapter).toContainText("Provider variables: CLINE_PROVIDERS_CONTENT (Cline's providers.json as `cline auth` writes it, written to ~/.cline/data/settings/providers.json)");
  await form.scrollIntoViewIfNeeded();
  await screenshots(page, "profile-provider-variables-cline");
  // A CLI with no provider of its own says nothing.
  await form.getByLabel(/^Adapter/).selectOption("shell");
  await expect(adapter.locator("small")).toHaveCount(0);
});
