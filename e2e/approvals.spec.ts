import { expect, test } from "@playwright/test";
import { hydrated } from "./helpers";

test("a prompt waiting for approval runs once an operator approves it", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await page.goto("/login");
  await page.getByLabel("Email").fill(process.env.E2E_EMAIL!);
  await page.getByLabel("Password").fill(process.env.E2E_PASSWORD!);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/");
  await expect(page.locator("header.top")).toBeVisible();
  const headers = { origin: baseURL! };
  const { projects } = await (await page.request.get("/api/projects")).json();
  const demo = projects.find((p: { name: string }) => p.name === "Demo app");

  await page.goto("/approvals");
  await expect(page.getByText("Nothing waits for a decision.")).toBeVisible();
  // A change made before hydration is lost: the policy would stay "none" and the prompt run unasked.
  await hydrated(page);
  await page.getByLabel("Prompt approval for Demo app").selectOption("all");
  await expect(page.getByLabel("Prompt approval for Demo app")).toHaveValue("all");
  await page.screenshot({ path: "test-results/screenshots/approvals-empty.png", fullPage: true });

  const created = await page.request.post(`/api/projects/${demo.id}/prompts`, {
    headers, data: { title: "Approved file", body: "```file approved.txt\napproved by a human\n```\n", priority: 1 },
  });
  expect(created.status()).toBe(201);
  const { prompt } = await created.json();
  expect(prompt.approval).toBe("pending");

  await page.reload();
  await hydrated(page);
  const card = page.getByTestId("approval").filter({ hasText: "Approved file" });
  await expect(card).toContainText("Asked by demo@ringmaster.local");
  await page.screenshot({ path: "test-results/screenshots/approvals-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/approvals-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Still waiting after a tick: the loop does not pick it up. The tick runs in a worker, later;
  // ticks of a project never overlap, so the second one to end after this read began after it.
  const ticks = async () => (await (await page.request.get(`/api/projects/${demo.id}/loop`)).json()).tickCount as number;
  const before = await ticks();
  await page.request.post(`/api/projects/${demo.id}/loop`, { headers, data: { action: "tick" } });
  await expect.poll(ticks, { timeout: 60_000 }).toBeGreaterThanOrEqual(before + 2);
  const waiting = (await (await page.request.get(`/api/projects/${demo.id}/prompts`)).json()).prompts.find((p: { id: string }) => p.id === prompt.id);
  expect(waiting).toMatchObject({ status: "pending", approval: "pending" });

  await card.getByLabel("Comment (optional)").fill("ship it");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Nothing waits for a decision.")).toBeVisible();
  await expect(page.getByTestId("approval").filter({ hasText: "Approved file" })).toContainText("approved by demo@ringmaster.local — “ship it”");

  await expect.poll(async () => {
    const list = (await (await page.request.get(`/api/projects/${demo.id}/prompts`)).json()).prompts;
    return list.find((p: { id: string }) => p.id === prompt.id)?.status;
  }, { timeout: 90_000, intervals: [500] }).toBe("done");

  await page.getByLabel("Prompt approval for Demo app").selectOption("none");
  await expect(page.getByLabel("Prompt approval for Demo app")).toHaveValue("none");
});
