import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { makeRepo, screenshots, signIn } from "./helpers";

// A fresh folder under the server's repository root, made by `make` (or left empty).
function folder(make: (dir: string) => void = () => {}): string {
  const dir = join(mkdtempSync(join(process.env.E2E_DATA_DIR!, "repos", "e2e-")), "folder");
  mkdirSync(dir);
  make(dir);
  return dir;
}

test("project set-up refuses a missing folder, a plain folder and a missing branch; tests the branch head; creates a repository in an empty folder", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "New project" }).click();
  const create = page.getByRole("button", { name: "Create project" });
  const pathError = page.locator(".field.invalid").filter({ has: page.getByLabel("Repository path") });
  await page.getByLabel("Name").fill("Set-up e2e");

  await page.getByLabel("Repository path").fill(join(folder(), "missing"));
  await create.click();
  await expect(pathError).toContainText("does not exist on the server");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Set-up e2e");

  const plain = folder((dir) => writeFileSync(join(dir, "notes.txt"), "just files\n"));
  await page.getByLabel("Repository path").fill(plain);
  await create.click();
  await expect(pathError).toContainText("is not a git repository");
  await expect(page.getByLabel("Repository path")).toHaveValue(plain);
  await screenshots(page, "setup-not-a-repository");

  const repo = makeRepo();
  await page.getByLabel("Repository path").fill(repo);
  await page.getByLabel("Base branch").fill("develop");
  await page.getByRole("button", { name: "Test repository" }).click();
  await expect(page.locator(".field.invalid").filter({ has: page.getByLabel("Base branch") })).toContainText("Base branch does not exist in");
  await expect(page.locator(".field.invalid").filter({ has: page.getByLabel("Base branch") })).toContainText("branches there: main");
  await expect(page.getByLabel("Base branch")).toHaveValue("develop");
  await screenshots(page, "setup-missing-branch");

  await page.getByLabel("Base branch").fill("main");
  await page.getByRole("button", { name: "Test repository" }).click();
  await expect(page.getByTestId("branch-head")).toContainText(/main is at [0-9a-f]{10} “init”/);
  await screenshots(page, "setup-branch-head");

  // An empty folder: the form offers a new repository there.
  const empty = folder();
  await page.getByLabel("Repository path").fill(empty);
  await create.click();
  await expect(pathError).toContainText("is an empty folder");
  const offer = page.getByRole("region", { name: "Empty folder" });
  await expect(offer).toBeVisible();
  await screenshots(page, "setup-empty-folder");
  await offer.getByRole("button", { name: "Create a new repository here" }).click();
  await expect(page.getByRole("heading", { name: "Set-up e2e" })).toBeVisible();

  // Settings check a changed branch the same way, keeping what was typed.
  await page.getByRole("link", { name: "Settings" }).click();
  const project = page.getByRole("form", { name: "Project" });
  await project.getByLabel("Base branch").fill("release");
  await project.getByRole("button", { name: "Save project" }).click();
  await expect(project.locator(".field.invalid")).toContainText("Base branch does not exist in");
  await expect(project.getByLabel("Base branch")).toHaveValue("release");
  await project.getByLabel("Base branch").fill("main");
  await project.getByRole("button", { name: "Test repository" }).click();
  await expect(project.getByTestId("branch-head")).toContainText("“Initial commit”");
  await screenshots(page, "setup-settings");
});
