import { expect, test } from "@playwright/test";
import { screenshots, signIn } from "./helpers";

test("an admin sets the team's model prices; a bad value is named by its line and kept", async ({ page }) => {
  await signIn(page);
  await page.goto("/team");
  const form = page.getByRole("form", { name: "Model prices" });
  const prices = form.getByLabel(/^Prices/);
  await prices.fill("claude-opus-4-1 2 10 0.2\ngpt-5 1.25 1e400 0.125");
  await form.getByRole("button", { name: "Save prices" }).click();
  await expect(form.locator(".field.invalid")).toContainText('Prices, line 2, "output" must be a number');
  await expect(prices).toHaveValue("claude-opus-4-1 2 10 0.2\ngpt-5 1.25 1e400 0.125");
  await form.scrollIntoViewIfNeeded();
  await screenshots(page, "team-prices-error");

  await prices.fill("claude-opus-4-1 2 10 0.2\ngpt-5 1.25 9 0.125");
  await form.getByRole("button", { name: "Save prices" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved");
  const saved = await page.request.get("/api/team/prices");
  expect((await saved.json()).prices).toEqual([
    { model: "claude-opus-4-1", input: 2, output: 10, cached: 0.2 },
    { model: "gpt-5", input: 1.25, output: 9, cached: 0.125 },
  ]);
  await page.reload();
  await expect(page.getByRole("form", { name: "Model prices" }).getByLabel(/^Prices/)).toHaveValue("claude-opus-4-1 2 10 0.2\ngpt-5 1.25 9 0.125");
  await screenshots(page, "team-prices-saved");
});
