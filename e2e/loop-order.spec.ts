import { expect, test } from "@playwright/test";
import { screenshots, signIn, createProject } from "./helpers";

// Both write the same file from the same base: whichever merges second conflicts and is redone.
const writeShared = (text: string) => `print writing ${text}\nsleep 8000\n\n\`\`\`file shared.txt\n${text}\n\`\`\`\n`;

test("a failing prompt says why and backs off, a conflicted run never reads succeeded, a failed prompt has Retry, settings show disk use", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await createProject(page, "Order e2e");

  // Settings: two attempts per prompt; the cooldown says it is per slot; the data folder's size shows.
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByText(/per slot: it holds only the slot just used/)).toBeVisible();
  await expect(page.getByTestId("disk-usage")).toContainText(/Data folder: \d+(\.\d)? (B|KB|MB|GB) in all · this project's worktrees: 0 B/);
  await page.getByLabel("Retry limit (attempts)").fill("2");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await screenshots(page, "loop-order-settings");
  await page.goto(page.url().replace(/\/settings$/, ""));

  const add = async (title: string, body: string) => {
    await page.getByRole("button", { name: "New prompt" }).click();
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Prompt (Markdown)").fill(body);
    await page.getByRole("button", { name: "Add prompt" }).click();
    await expect(page.getByTestId("prompt-card").filter({ hasText: title })).toBeVisible();
  };
  await add("Flaky", "print trying\nprint the test suite is red: 3 of 40 failed\nexit 1");
  await add("Shared A", writeShared("A"));
  await add("Shared B", writeShared("B"));
  await expect(page.getByTestId("prompt-card").filter({ hasText: "Flaky" }).getByRole("link")).toHaveText("#1 Flaky");
  await page.locator("body").press("o");
  await expect(page.getByTestId("loop-mode")).toHaveText("loop running");

  // The first failure: the card says why, counts the attempt and shows the backoff.
  const flaky = page.getByTestId("prompt-card").filter({ hasText: "Flaky" });
  await expect(flaky.getByTestId("attempts")).toContainText(/attempts 1\/2 · retry in \d+s/, { timeout: 30_000 });
  await expect(flaky.getByTestId("failure-reason")).toContainText("last try:");
  await screenshots(page, "loop-order-backoff");

  // The second failure fails it for good, still saying why.
  await expect(page.getByTestId("column-failed").getByTestId("prompt-card").filter({ hasText: "Flaky" })).toBeVisible({ timeout: 60_000 });
  await expect(flaky.getByTestId("failure-reason")).toContainText("failed:");
  await expect(flaky.getByTestId("attempts")).toHaveText("attempts 2/2");
  await expect(page.getByTestId("column-done").getByTestId("prompt-card")).toHaveCount(2, { timeout: 90_000 });
  await screenshots(page, "loop-order-failed-card");

  // One of the shared prompts conflicted: its first run reads "merge conflict", never "succeeded".
  let conflicted = false;
  for (const title of ["Shared A", "Shared B"]) {
    await page.getByTestId("prompt-card").filter({ hasText: title }).getByRole("link").click();
    const badges = page.locator("ul.runs .badge");
    await expect(badges.first()).toBeVisible();
    const labels = await badges.allTextContents();
    expect(labels).not.toContain("succeeded");
    if (labels.includes("merge conflict")) {
      conflicted = true;
      expect(labels).toEqual(["merged", "merge conflict"]);
      await screenshots(page, "loop-order-conflict");
      await page.locator("ul.runs li").filter({ hasText: "merge conflict" }).getByRole("link", { name: "run 1" }).click();
      await expect(page.getByTestId("run-status")).toHaveText("merge conflict");
      await screenshots(page, "loop-order-conflict-run");
    }
    await page.goBack();
    if (labels.includes("merge conflict")) await page.goBack();
  }
  expect(conflicted).toBe(true);

  // A failed prompt's page has Retry; it goes back to the queue with fresh attempts (the loop stopped itself: all done).
  await expect(page.getByTestId("loop-mode")).toHaveText("loop stopped", { timeout: 20_000 });
  await flaky.getByRole("link").click();
  await expect(page.getByTestId("prompt-status")).toHaveText("failed");
  await expect(page.getByTestId("prompt-attempts")).toHaveText("attempts 2/2");
  await screenshots(page, "loop-order-failed-prompt");
  await page.getByRole("button", { name: "Retry" }).click();
  // Back in the queue: the loop, stopped because its queue ran dry, takes it again at once.
  await expect(page.getByTestId("prompt-status")).toHaveText(/^(pending|in_progress)$/);
});
