import { expect, test } from "@playwright/test";
import { screenshots, signIn } from "./helpers";

test("a profile's permission mode: the form says what each mode allows, refuses the mode set again in extra arguments", async ({ page }) => {
  await signIn(page);
  await page.goto("/profiles");
  const form = page.getByRole("form", { name: "New profile" });
  const name = `Gemini modes ${Date.now()}`;
  await form.getByLabel(/^Name/).fill(name);
  await form.getByLabel(/^Adapter/).selectOption("gemini");
  const mode = form.locator("label.field").filter({ hasText: "Permission mode" });
  await expect(form.getByLabel(/^Permission mode/)).toHaveValue("");
  await expect(mode).toContainText("yolo allows every tool without asking: edits, shell commands (tests, builds), web fetches");
  await form.getByLabel(/^Permission mode/).selectOption("auto_edit");
  await expect(mode).toContainText("auto_edit allows file edits only: headless Gemini then offers no shell tool, so it cannot run tests or builds");
  await form.getByLabel(/^Extra arguments/).fill("--yolo");
  await form.getByRole("button", { name: "Create profile" }).click();
  await expect(form.locator(".field.invalid").filter({ hasText: "Extra arguments, line 1 must not set the permission mode (--yolo)" })).toBeVisible();
  await expect(form.getByLabel(/^Permission mode/)).toHaveValue("auto_edit");
  await screenshots(page, "profile-permission-mode-refused");

  await form.getByLabel(/^Extra arguments/).fill("");
  await form.getByRole("button", { name: "Create profile" }).click();
  const card = page.getByRole("form", { name: `Profile ${name}` });
  await expect(card.getByLabel(/^Permission mode/)).toHaveValue("auto_edit");
  await expect(card.locator("label.field").filter({ hasText: "Permission mode" })).toContainText("auto_edit allows file edits only");
  // Another CLI has modes of its own: switching starts from its default.
  await card.getByLabel(/^Adapter/).selectOption("claude");
  await expect(card.getByLabel(/^Permission mode/)).toHaveValue("");
  await expect(card.locator("label.field").filter({ hasText: "Permission mode" })).toContainText("bypassPermissions allows every tool without asking");
  await card.getByLabel(/^Adapter/).selectOption("aider");
  await expect(card.getByLabel(/^Permission mode/)).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await screenshots(page, "profile-permission-mode-saved");
});
