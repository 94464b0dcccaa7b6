import { expect, test } from "@playwright/test";
import { hydrated, makeRepo, screenshots, signIn } from "./helpers";

const edit = (file: string, ms: number) => `print working on ${file}\nsleep ${ms}\n\n\`\`\`file ${file}\n${file}\n\`\`\`\n`;
// 8 steps of 1.5 s: live long enough to be opened and reloaded mid-run when updates lag on a loaded machine.
const chatty = Array.from({ length: 8 }, (_, i) => `print step ${i + 1} of 8\nsleep 1500`).join("\n") + "\n\n```file c.txt\nc\n```\n";

test("create a project, queue dependent prompts, run them live, keyboard toggles, settings errors, reload mid-run", async ({ page }) => {
  // Five agent runs in the sandbox, each spawned by the workers: minutes on a loaded machine.
  test.setTimeout(300_000);
  await signIn(page);

  // Create a project on a local repository.
  await page.getByRole("link", { name: "New project" }).click();
  await page.getByLabel("Name").fill("Live e2e");
  const repo = makeRepo();
  await page.getByLabel("Repository path").fill(repo);
  await screenshots(page, "new-project");
  // A field's error keeps everything typed.
  await page.getByLabel("Base branch").fill("bad..branch");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.locator(".field.invalid")).toContainText("Base branch is not a valid branch name");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Live e2e");
  await expect(page.getByLabel("Repository path")).toHaveValue(repo);
  await expect(page.getByLabel("Base branch")).toHaveValue("bad..branch");
  await page.getByLabel("Base branch").fill("main");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { name: "Live e2e" })).toBeVisible();
  await expect(page.getByTestId("loop-mode")).toHaveText("loop stopped");
  await expect(page.getByTestId("live-status")).toHaveText("live");

  // Three prompts; the third depends on the first two.
  const add = async (title: string, body: string, deps = "") => {
    await page.getByRole("button", { name: "New prompt" }).click();
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Prompt (Markdown)").fill(body);
    if (deps) await page.getByLabel("Depends on").fill(deps);
    await page.getByRole("button", { name: "Add prompt" }).click();
    await expect(page.getByTestId("prompt-card").filter({ hasText: title })).toBeVisible();
  };
  await add("Write A", edit("a.txt", 1500));
  await add("Write B", edit("b.txt", 1500));
  await add("Combine", chatty, "1, 2");
  await expect(page.getByTestId("blocked-by")).toHaveText("blocked by #1, #2");
  await screenshots(page, "project-queued");

  // Parallel off then on with the keyboard (p), then start the loop (o).
  await page.locator("body").press("p");
  await expect(page.getByRole("switch", { name: /Parallel/ })).toHaveAttribute("aria-checked", "false");
  await page.locator("body").press("p");
  await expect(page.getByRole("switch", { name: /Parallel/ })).toHaveAttribute("aria-checked", "true");
  await page.locator("body").press("o");
  await expect(page.getByTestId("loop-mode")).toHaveText("loop running");

  // Runs appear and finish without a reload; P3 runs only after P1 and P2 are done.
  const column = (status: string) => page.getByTestId(`column-${status}`);
  await expect(page.getByTestId("running-agent").first()).toBeVisible({ timeout: 60_000 });
  await screenshots(page, "project-running");
  await expect(column("done").getByTestId("prompt-card")).toHaveCount(2, { timeout: 90_000 });
  await expect(column("pending").getByTestId("prompt-card").filter({ hasText: "Combine" })).toHaveCount(0, { timeout: 60_000 });

  // Follow P3's run: its log streams; a reload mid-run continues from where it was.
  await page.getByTestId("running-agent").filter({ hasText: "Combine" }).getByRole("link").click();
  await expect(page.getByTestId("run-log")).toContainText("step 2 of 8", { timeout: 60_000 });
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("run-log")).toContainText("step 1 of 8");
  await expect(page.getByTestId("run-log")).toContainText("step 8 of 8", { timeout: 60_000 });
  await expect(page.getByTestId("run-status")).toHaveText("merged", { timeout: 60_000 });
  await expect(page.getByTestId("log-status")).toHaveText("complete");
  expect(await page.getByTestId("run-log").getByText("step 1 of 8").count()).toBe(1);
  await screenshots(page, "run");

  // The prompt page renders its body as Markdown, with its runs.
  await page.getByRole("link", { name: /#3 Combine/ }).click();
  await expect(page.getByTestId("prompt-status")).toHaveText("done", { timeout: 60_000 });
  await screenshots(page, "prompt");

  // An invalid setting shows its error next to the field and changes nothing.
  await page.getByRole("link", { name: "Live e2e" }).click();
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Parallel agents", { exact: false }).fill("0");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.locator(".field.invalid")).toContainText("Parallel agents must be a whole number ≥ 1");
  await expect(page.getByLabel("Parallel agents", { exact: false })).toHaveValue("0");
  await screenshots(page, "settings-error");
  await page.getByLabel("Parallel agents", { exact: false }).fill("2");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();

  await screenshots(page, "settings");

  // Agent profiles: a shell profile needs its command template.
  await page.getByRole("link", { name: "Agents" }).click();
  const form = page.getByRole("form", { name: "New profile" });
  await form.getByLabel(/^Name/).fill("Custom CLI");
  await form.getByLabel(/^Adapter/).selectOption("shell");
  await form.getByRole("button", { name: "Create profile" }).click();
  await expect(form.locator(".field.invalid")).toContainText("Command template is required for the shell adapter");
  await expect(form.getByLabel(/^Name/)).toHaveValue("Custom CLI");
  await expect(form.getByLabel(/^Adapter/)).toHaveValue("shell");
  await form.getByRole("textbox", { name: /^Command template/ }).fill("my-agent --task {prompt}");
  await form.getByRole("button", { name: "Create profile" }).click();
  await expect(page.getByRole("form", { name: "Profile Custom CLI" })).toBeVisible();
  await screenshots(page, "profiles");

  await page.goto(page.url().replace(/\/profiles$/, "/"));
  await hydrated(page);
  await page.getByTestId("project-card").filter({ hasText: "Live e2e" }).click();
  await expect(column("done").getByTestId("prompt-card")).toHaveCount(3);
  await screenshots(page, "project-done");
  await page.getByRole("link", { name: "Ringmaster" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await expect(page.getByTestId("project-card").filter({ hasText: "Live e2e" })).toContainText("3 done");
  await screenshots(page, "projects");
});
