import { expect, test, type Page } from "@playwright/test";
import { screenshots, signIn, createProject } from "./helpers";

// A same-origin call from the signed-in page (cookie and Origin, as the dashboard sends them).
async function call(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(async ({ method, path, body }) => {
    const res = await fetch(path, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, text: await res.text() };
  }, { method, path, body });
}

const costOf = async (page: Page) => Number((await page.getByTestId("run-cost").innerText()).match(/\$(\d+\.\d+)/)![1]);

test("a run's tokens and cost rise live beside its ceilings; the Usage page charts and splits the spend", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page);

  await createProject(page, "Spend e2e");
  const projectId = page.url().split("/projects/")[1];

  // A demo profile priced as Sonnet 4.5, with a $5 run ceiling, under a $1 daily project budget.
  const profile = await call(page, "POST", "/api/agent-profiles", { name: `sonnet-${Date.now()}`, adapter: "demo", model: "claude-sonnet-4-5", maxCostUsd: 5, maxTokens: 1_000_000 });
  expect(profile.status).toBe(201);
  const profileId = JSON.parse(profile.text).profile.id;
  expect((await call(page, "PATCH", `/api/projects/${projectId}/settings`, { executorProfileId: profileId, dailyBudgetUsd: 1 })).status).toBe(200);

  // Each step is one model call of 20,000 tokens in and 1,000 out: $0.075.
  const steps = Array.from({ length: 6 }, (_, i) => `print call ${i + 1}\nusage 20000 1000\nsleep 1500`).join("\n");
  await page.getByRole("button", { name: "New prompt" }).click();
  await page.getByLabel("Title").fill("Metered work");
  await page.getByLabel("Prompt (Markdown)").fill(`${steps}\n\n\`\`\`file metered.txt\nok\n\`\`\`\n`);
  await page.getByRole("button", { name: "Add prompt" }).click();
  await page.locator("body").press("o");
  await expect(page.getByTestId("loop-mode")).toHaveText("loop running");

  await page.getByTestId("running-agent").filter({ hasText: "Metered work" }).getByRole("link").click();
  await expect(page.getByTestId("run-cost")).toContainText("of $5.0000", { timeout: 30_000 });
  await expect(page.getByTestId("run-tokens")).toContainText("of 1,000,000");
  // Live: the cost shown grows while the run is still running, without a reload.
  await expect.poll(() => costOf(page), { timeout: 30_000 }).toBeGreaterThan(0);
  const first = await costOf(page);
  await expect.poll(() => costOf(page), { timeout: 30_000 }).toBeGreaterThan(first);
  await expect(page.getByTestId("run-status")).toHaveText("running");
  await screenshots(page, "run-live-spend");
  await expect(page.getByTestId("run-status")).toHaveText("merged", { timeout: 60_000 });
  await expect(page.getByTestId("run-cost")).toContainText("$0.4500");
  await expect(page.getByTestId("run-tokens")).toContainText("126,000");

  await page.getByRole("link", { name: "Projects" }).click();
  await expect(page.getByTestId("project-card").filter({ hasText: "Spend e2e" }).getByTestId("spend-today")).toHaveText("today $0.45 of $1.00 budget");

  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page.getByRole("heading", { name: "Usage" })).toBeVisible();
  await expect(page.getByTestId("spend-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByTestId("usage-by-project")).toContainText("Spend e2e");
  await expect(page.getByTestId("usage-by-project").getByRole("row").filter({ hasText: "Spend e2e" })).toContainText("$0.45");
  await expect(page.getByTestId("usage-by-model")).toContainText("claude-sonnet-4-5");
  await expect(page.getByTestId("usage-by-person")).toContainText("Demo Owner");
  await expect(page.getByTestId("usage-top-runs").getByRole("link", { name: /Metered work/ })).toBeVisible();
  await screenshots(page, "usage");

  // The CSV has the same figures; a bad period is a field error.
  const href = await page.getByTestId("usage-csv").getAttribute("href");
  const csv = await call(page, "GET", href!);
  expect(csv.text.split("\n")[0]).toBe("day,project,profile,model,person,inputTokens,cachedTokens,outputTokens,costUsd");
  expect(csv.text).toMatch(/Spend e2e,sonnet-\d+,claude-sonnet-4-5,Demo Owner,120000,0,6000,0\.450000/);
  const bad = await call(page, "GET", "/api/usage?from=2026-11-30&to=2026-11-01");
  expect(bad.status).toBe(400);
  expect(JSON.parse(bad.text).error.field).toBe("to");

  // The run link leads back to the run.
  await page.getByTestId("usage-top-runs").getByRole("link", { name: /Metered work/ }).click();
  await expect(page.getByTestId("run-status")).toHaveText("merged");
});
