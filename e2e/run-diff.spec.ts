import { expect, test } from "@playwright/test";
import { screenshots, signIn, createProject } from "./helpers";

const body = [
  "print writing the notes",
  "",
  "```file README.md", "# e2e", "", "Now with notes: see notes.md.", "```",
  "",
  "```file notes.md", "# Notes", "", "- first", "- second", "- third", "```",
  "",
].join("\n");

test("a merged run's page shows its changes, unified and side by side, with its merged commit", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await createProject(page, "Diff e2e");

  await page.getByRole("button", { name: "New prompt" }).click();
  await page.getByLabel("Title").fill("Write notes");
  await page.getByLabel("Prompt (Markdown)").fill(body);
  await page.getByRole("button", { name: "Add prompt" }).click();
  await expect(page.getByTestId("prompt-card").filter({ hasText: "Write notes" })).toBeVisible();
  await page.locator("body").press("o");
  await expect(page.getByTestId("column-done").getByTestId("prompt-card")).toHaveCount(1, { timeout: 60_000 });

  await page.getByRole("link", { name: /Write notes/ }).click();
  await page.getByRole("link", { name: "run 1" }).click();
  await expect(page.getByTestId("run-status")).toHaveText("merged");
  const work = page.getByRole("definition").filter({ hasText: "merged" }).filter({ hasText: /[0-9a-f]{10}/ });
  await expect(work).toContainText(/[0-9a-f]{10}/);
  const changes = page.getByRole("region", { name: "Changes" });
  await expect(changes).toContainText("2 files, +7 −0");
  const notes = changes.getByRole("article", { name: "Changes to notes.md" });
  await expect(notes).toContainText("- second");
  await expect(changes.getByRole("article", { name: "Changes to README.md" })).toContainText("Now with notes: see notes.md.");
  await screenshots(page, "run-diff-unified");

  await changes.getByRole("button", { name: "Side by side" }).click();
  await expect(changes.getByRole("button", { name: "Side by side" })).toHaveAttribute("aria-pressed", "true");
  await expect(notes.locator("table.diff-split")).toBeVisible();
  await screenshots(page, "run-diff-split");

  // Kept after the merge: a reload reads it back from the server.
  await page.reload();
  await expect(page.getByRole("region", { name: "Changes" }).getByRole("article", { name: "Changes to notes.md" })).toContainText("- third");
});
