import { expect, test, type Page } from "@playwright/test";
import { screenshots, signIn } from "./helpers";

/** Records every receipt the page shows, in order, so a status shown only briefly is still seen. */
async function recordReceipts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    const last = new Map<string, string>();
    const scan = () => {
      for (const el of document.querySelectorAll<HTMLElement>("[data-testid^='receipt-']")) {
        const id = el.dataset.testid!;
        const status = el.dataset.status!;
        if (last.get(id) !== status) { last.set(id, status); seen.push(`${id}:${status}`); }
      }
    };
    new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
    (window as unknown as { receipts: string[] }).receipts = seen;
  });
  return () => page.evaluate(() => (window as unknown as { receipts: string[] }).receipts);
}

test("a person writes in a thread; the demo lead answers and the receipts turn ✓ → ✓✓ → blue ✓✓", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page);
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Threads" }).click();
  await expect(page.getByRole("heading", { name: "Threads" })).toBeVisible();

  const form = page.getByRole("form", { name: "New thread" });
  await form.getByLabel("Subject").fill("Why did the last run fail?");
  await form.getByRole("button", { name: "Start thread" }).click();
  await page.waitForURL(/\/threads\/[^/]+$/);
  await expect(page.getByRole("heading", { name: "Why did the last run fail?" })).toBeVisible();
  await expect(page.getByText("No messages yet.")).toBeVisible();
  const receipts = await recordReceipts(page);

  // A blank message is refused beside the field, and what was typed stays.
  const box = page.getByLabel("Message");
  await box.fill("   ");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator("form.reply").getByRole("alert")).toHaveText("Message is required");
  await expect(box).toHaveValue("   ");

  await box.fill("The login page run failed twice. What happened?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("turn").first()).toContainText("The login page run failed twice.");
  await expect(box).toHaveValue("");
  await screenshots(page, "thread-sent");

  // The demo lead (a real lead run of the demo agent) reads the thread and answers.
  const answer = page.getByTestId("turn").filter({ hasText: "Lead agent" });
  await expect(answer).toContainText("Done: 0 of 0 edits applied.", { timeout: 120_000 });
  await expect(page.getByTestId("receipt-1")).toHaveAttribute("data-status", "evaluated");
  await expect(page.getByTestId("receipt-1")).toHaveText("✓✓");
  await expect(page.getByTestId("receipt-1")).toHaveCSS("color", "rgb(37, 99, 235)");
  const history = await receipts();
  const at = (entry: string) => history.indexOf(entry);
  expect(at("receipt-pending:sent"), history.join(" ")).toBeGreaterThanOrEqual(0);
  expect(at("receipt-1:delivered"), history.join(" ")).toBeGreaterThan(at("receipt-pending:sent"));
  expect(at("receipt-1:evaluated"), history.join(" ")).toBeGreaterThan(at("receipt-1:delivered"));
  await screenshots(page, "thread-evaluated");

  await page.goto("/threads");
  await expect(page.getByRole("link", { name: /Why did the last run fail\?/ })).toContainText("Done: 0 of 0 edits applied.");
  await screenshots(page, "threads-list");
});

test("every prompt page carries its conversation with the lead", async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  await signIn(page);
  const { projects } = await (await page.request.get("/api/projects")).json();
  const demo = projects.find((p: { name: string }) => p.name === "Demo app");
  const created = await page.request.post(`/api/projects/${demo.id}/prompts`, { headers: { origin: baseURL! }, data: { title: "Talked-about prompt", priority: 4 } });
  const { prompt } = await created.json();
  await page.goto(`/prompts/${prompt.id}`);
  await expect(page.getByRole("heading", { name: "Conversation" })).toBeVisible();
  await expect(page.getByText("No messages yet.")).toBeVisible();
  await page.getByLabel("Message").fill("Keep the old URLs working.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("turn").first()).toContainText("Keep the old URLs working.");
  await expect(page.getByTestId("receipt-1")).toHaveAttribute("data-status", "evaluated", { timeout: 120_000 });
  await screenshots(page, "prompt-thread");
});
