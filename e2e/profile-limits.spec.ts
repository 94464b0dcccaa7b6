import { expect, test } from "@playwright/test";
import { screenshots, signIn } from "./helpers";

test("a profile's wall time and turn limit: bad values named in words and kept, good ones saved", async ({ page }) => {
  await signIn(page);
  await page.goto("/profiles");
  const form = page.getByRole("form", { name: "New profile" });
  const name = `Limited ${Date.now()}`;
  await form.getByLabel(/^Name/).fill(name);
  await form.getByLabel(/^Max run duration/).fill("1e400");
  await form.getByLabel(/^Max turns per run/).fill("-1");
  await form.getByRole("button", { name: "Create profile" }).click();
  await expect(form.locator(".field.invalid").filter({ hasText: "Max run duration must be a whole number from 60000 to 604800000 ms" })).toBeVisible();
  await expect(form.locator(".field.invalid").filter({ hasText: "Max turns per run must be a whole number from 0 to 1000000" })).toBeVisible();
  await expect(form.getByLabel(/^Max run duration/)).toHaveValue("1e400");
  await expect(form.getByLabel(/^Max turns per run/)).toHaveValue("-1");
  await screenshots(page, "profile-limits-errors");

  await form.getByLabel(/^Max run duration/).fill("900000");
  await form.getByLabel(/^Max turns per run/).fill("40");
  await form.getByRole("button", { name: "Create profile" }).click();
  const card = page.getByRole("form", { name: `Profile ${name}` });
  await expect(card.getByLabel(/^Max run duration/)).toHaveValue("900000");
  await expect(card.getByLabel(/^Max turns per run/)).toHaveValue("40");
  // The hint says which adapters can enforce a turn limit (claude can, live).
  await expect(card.locator("label.field").filter({ hasText: "Max turns per run" })).toContainText("enforced live");
  await card.scrollIntoViewIfNeeded();
  await screenshots(page, "profile-limits-saved");
});
