import { expect, test } from "@playwright/test";
import { screenshots, signIn } from "./helpers";

test("an owner sets the team's budget on the Team page; a bad value is named and kept", async ({ page }) => {
  await signIn(page);
  await page.goto("/team");
  const form = page.getByRole("form", { name: "Team budget" });
  const daily = form.getByLabel("Daily budget (USD)");
  const monthly = form.getByLabel("Monthly budget (USD)");
  await daily.fill("1e400");
  await monthly.fill("250");
  await form.getByRole("button", { name: "Save team budget" }).click();
  await expect(form.locator(".field.invalid")).toContainText("Daily budget must be a number");
  await expect(daily).toHaveValue("1e400");
  await expect(monthly).toHaveValue("250");
  expect((await (await page.request.get("/api/team/budget")).json()).budget).toEqual({ dailyBudgetUsd: null, monthlyBudgetUsd: null });
  await form.scrollIntoViewIfNeeded();
  await screenshots(page, "team-budget-error");

  await daily.fill("40.5");
  await form.getByRole("button", { name: "Save team budget" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved");
  expect((await (await page.request.get("/api/team/budget")).json()).budget).toEqual({ dailyBudgetUsd: 40.5, monthlyBudgetUsd: 250 });
  await page.reload();
  await expect(page.getByRole("form", { name: "Team budget" }).getByLabel("Daily budget (USD)")).toHaveValue("40.5");
  await page.getByRole("form", { name: "Team budget" }).scrollIntoViewIfNeeded();
  await screenshots(page, "team-budget-saved");

  // Later specs run on this team: no team budget left behind.
  await page.getByRole("form", { name: "Team budget" }).getByLabel("Daily budget (USD)").fill("");
  await page.getByRole("form", { name: "Team budget" }).getByLabel("Monthly budget (USD)").fill("");
  await page.getByRole("form", { name: "Team budget" }).getByRole("button", { name: "Save team budget" }).click();
  await expect(page.getByRole("form", { name: "Team budget" }).getByRole("status")).toHaveText("Saved");
  expect((await (await page.request.get("/api/team/budget")).json()).budget).toEqual({ dailyBudgetUsd: null, monthlyBudgetUsd: null });
});
