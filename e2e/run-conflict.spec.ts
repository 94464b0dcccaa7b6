import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { makeRepo, screenshots, signIn } from "./helpers";

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: "e2e", GIT_AUTHOR_EMAIL: "e2e@localhost", GIT_COMMITTER_NAME: "e2e", GIT_COMMITTER_EMAIL: "e2e@localhost" };

test("a run whose merge conflicts shows its kept worktree, and an admin discards it", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const repo = makeRepo();
  await page.getByRole("link", { name: "New project" }).click();
  await page.getByLabel("Name").fill("Conflict e2e");
  await page.getByLabel("Repository path").fill(repo);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { name: "Conflict e2e" })).toBeVisible();

  // The agent waits before writing; meanwhile someone commits the same file on main.
  await page.getByRole("button", { name: "New prompt" }).click();
  await page.getByLabel("Title").fill("Write shared");
  await page.getByLabel("Prompt (Markdown)").fill("print waiting\nsleep 20000\n\n```file shared.txt\nfrom the agent\n```\n");
  await page.getByRole("button", { name: "Add prompt" }).click();
  await page.locator("body").press("o");
  await expect(page.getByTestId("running-agent").first()).toBeVisible({ timeout: 30_000 });
  writeFileSync(join(repo, "shared.txt"), "from a person\n");
  execFileSync("git", ["add", "shared.txt"], { cwd: repo, env: gitEnv });
  execFileSync("git", ["commit", "-q", "-m", "a person's change"], { cwd: repo, env: gitEnv });

  // The prompt's own page (the running agent's card links to its run page under the same title).
  await page.locator('a[href^="/prompts/"]', { hasText: "Write shared" }).first().click();
  await page.getByRole("link", { name: "run 1" }).click();
  const kept = page.getByRole("region", { name: "Kept worktree" });
  await expect(kept).toBeVisible({ timeout: 60_000 });
  await expect(kept).toContainText("merge conflict");
  await expect(kept.locator("pre")).toContainText("cd /");
  await expect(page.getByRole("region", { name: "Changes" })).toContainText("from the agent");
  await screenshots(page, "run-conflict");

  page.once("dialog", (d) => void d.accept());
  await kept.getByRole("button", { name: "Discard worktree" }).click();
  await expect(kept).toHaveCount(0);
  await expect(page.getByText(/The worktree was discarded/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Changes" })).toContainText("from the agent");
  await screenshots(page, "run-conflict-discarded");
});
