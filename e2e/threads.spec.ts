import { expect, test } from "@playwright/test";
import { screenshots, signIn } from "./helpers";

// The spec plays the lead agent's loop against the app's own database and streams, through the
// same functions the loop calls: the page must follow each receipt live, without a reload.
process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
process.env.REDIS_PREFIX = process.env.E2E_REDIS_PREFIX;
const threads = async () => {
  const { getRedis, readyRedis } = await import("@/lib/redis/connections");
  // The producer connection refuses commands until it is connected (no offline queue).
  await readyRedis(getRedis("producer"));
  return { ...(await import("@/lib/threads/status")), ...(await import("@/lib/threads/append")) };
};

test("a person writes in a thread and watches the receipts turn ✓ → ✓✓ → blue ✓✓", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Threads" }).click();
  await expect(page.getByRole("heading", { name: "Threads" })).toBeVisible();
  await expect(page.getByText("No conversations yet.")).toBeVisible();

  const form = page.getByRole("form", { name: "New thread" });
  await form.getByLabel("Subject").fill("Why did the last run fail?");
  await form.getByLabel("Message").fill("The login page run failed twice. What happened?");
  await form.getByRole("button", { name: "Start thread" }).click();
  await page.waitForURL(/\/threads\/[^/]+$/);
  const threadId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByRole("heading", { name: "Why did the last run fail?" })).toBeVisible();
  await expect(page.getByTestId("receipt-1")).toHaveAttribute("data-status", "sent");
  await expect(page.getByTestId("receipt-1")).toHaveText("✓");

  // A blank message is refused beside the field, and what was typed stays.
  const box = page.getByLabel("Message");
  await box.fill("   ");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator("form.reply").getByRole("alert")).toHaveText("text is required");
  await expect(box).toHaveValue("   ");

  await box.fill("Also: can you split the fix into prompts?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("receipt-2")).toHaveAttribute("data-status", "sent");
  await expect(box).toHaveValue("");
  await screenshots(page, "thread-sent");

  const t = await threads();
  expect(await t.markDelivered(threadId)).toEqual({ count: 2, seqs: [1, 2] });
  await expect(page.getByTestId("receipt-1")).toHaveAttribute("data-status", "delivered");
  await expect(page.getByTestId("receipt-2")).toHaveText("✓✓");
  await screenshots(page, "thread-delivered");

  await t.appendTurn(threadId, { actor: "lead", action: "message", text: "Run 2 timed out in the test step: the login test waits for a mail server that the sandbox cannot reach." });
  await t.markEvaluated(threadId, [1, 2]);
  await expect(page.getByTestId("receipt-1")).toHaveAttribute("data-status", "evaluated");
  await expect(page.getByTestId("receipt-2")).toHaveAttribute("data-status", "evaluated");
  await expect(page.getByTestId("turn").nth(2)).toContainText("Lead agent");
  await expect(page.getByTestId("receipt-1")).toHaveCSS("color", "rgb(37, 99, 235)");
  await screenshots(page, "thread-evaluated");

  await page.goto("/threads");
  await expect(page.getByRole("link", { name: /Why did the last run fail\?/ })).toContainText("Run 2 timed out");
  await screenshots(page, "threads-list");
});

test("every prompt page carries its conversation", async ({ page, baseURL }) => {
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
  await expect(page.getByTestId("receipt-1")).toHaveAttribute("data-status", "sent");
  await screenshots(page, "prompt-thread");
});
