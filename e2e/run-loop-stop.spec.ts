import { expect, test, type Page } from "@playwright/test";
import { createProject, hydrated, screenshots, signIn } from "./helpers";

type RunRow = { id: string; status: string; prompt: { title: string } | null };

const runsOf = async (page: Page, projectId: string): Promise<RunRow[]> =>
  (await (await page.request.get(`/api/projects/${projectId}/runs`)).json()).runs;

test("an agent repeating one tool call is stopped, and the run page marks the repeated step", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  // A project of its own: its failed prompt and stopped loop touch no other spec.
  await createProject(page, "Loop stop e2e");
  const projectId = new URL(page.url()).pathname.split("/")[2];
  await hydrated(page);

  await page.getByRole("button", { name: "New prompt" }).click();
  await page.getByLabel("Title").fill("Go round in circles");
  await page.getByLabel("Prompt (Markdown)").fill(`tool Read {"path": "README.md"}\n${'tool Bash {"command": "ls -la"}\n'.repeat(10)}`);
  await page.getByRole("button", { name: "Add prompt" }).click();
  await expect(page.getByTestId("prompt-card").filter({ hasText: "Go round in circles" })).toBeVisible();
  // The loop starts, the run fails within moments and the queue runs dry: the loop may already be
  // stopped again when looked at, so what is checked is the run it started.
  await page.locator("body").press("o");

  let failed: RunRow | undefined;
  await expect.poll(async () => {
    failed = (await runsOf(page, projectId)).find((r) => r.prompt?.title === "Go round in circles" && r.status === "failed");
    return failed?.status;
  }, { timeout: 90_000 }).toBe("failed");
  await page.goto(`/runs/${failed!.id}`);
  await hydrated(page);
  const reason = 'stopped: the agent repeated the same tool call 8 times in a row (Bash {"command":"ls -la"})';
  // The reason stands above the log, and in the log where the run was stopped.
  await expect(page.locator("p.error")).toHaveText(reason);
  await expect(page.getByTestId("run-log")).toContainText(`[ringmaster] ${reason}`);
  // Every step of the repeated call is marked (a fast agent may print a call or two more before it
  // is stopped), and the different call before them is not.
  const tools = page.getByTestId("run-log").locator(".step.tool");
  await expect.poll(async () => {
    const marked = await page.getByTestId("repeated-step").count();
    return { enough: marked >= 8, unmarked: (await tools.count()) - marked };
  }).toEqual({ enough: true, unmarked: 1 });
  await expect(page.getByTestId("run-log").locator(".step.tool").first()).not.toHaveClass(/repeated/);
  await screenshots(page, "run-loop-stopped");
});
