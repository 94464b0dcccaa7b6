import { expect, test } from "@playwright/test";
import { hydrated, screenshots, signIn } from "./helpers";

test("an admin stores an agent credential on the Team page: write-only, last 4 shown, Ringmaster's secrets refused", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Team" }).click();
  const panel = page.getByRole("region", { name: "Agent credentials" });
  await expect(panel.getByText("No agent credentials yet.")).toBeVisible();

  await panel.getByLabel("Variable name").fill("DATABASE_URL");
  await panel.getByLabel("Value").fill("postgresql://steal-me");
  await panel.getByRole("button", { name: "Save credential" }).click();
  await expect(panel.getByText("name is one of Ringmaster's own variables and is never passed to an agent")).toBeVisible();
  await expect(panel.getByLabel("Variable name")).toHaveValue("DATABASE_URL");

  await panel.getByLabel("Variable name").fill("ANTHROPIC_API_KEY");
  await panel.getByLabel("Value").fill("sk-ant-e2e-secret-9Q7z");
  await panel.getByRole("button", { name: "Save credential" }).click();
  const row = panel.getByTestId("credentials").getByRole("row", { name: /ANTHROPIC_API_KEY/ });
  await expect(row).toContainText("••••9Q7z");
  await expect(panel.getByLabel("Value")).toHaveValue("");
  expect(await page.content()).not.toContain("sk-ant-e2e-secret");
  await screenshots(page, "team-credentials");

  await page.reload();
  await hydrated(page);
  await expect(row).toContainText("••••9Q7z");
  expect(await page.content()).not.toContain("sk-ant-e2e-secret");
  page.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: "Delete ANTHROPIC_API_KEY" }).click();
  await expect(panel.getByText("No agent credentials yet.")).toBeVisible();
});
