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
  await page.getByLabel("Prompt (Markdown)").fill(`${'tool Bash {"command": "ls -la"}\n'.repeat(10)}print never reached\n`);
  await page.getByRole("button", { name: "Add prompt" }).click();
  await expect(page.getByTestId("prompt-card").filter({ hasText: "Go round in circles" })).toBeVisible();
  await page.locator("body").press("o");
  await expect(page.getByTestId("loop-mode")).toHaveText("loop running");

  let failed: RunRow | undefined;
  await expect.poll(async () => {
    failed = (await runsOf(page, projectId)).find((r) => r.prompt?.title === "Go round in circles" && r.status === "failed");
    return failed?.status;
  }, { timeout: 90_000 }).toBe("failed");
  await page.goto(`/runs/${failed!.id}`);
  await hydrated(page);
  await expect(page.getByText('stopped: the agent repeated the same tool call 8 times in a row (Bash {"command":"ls -la"})')).toBeVisible();
  // Each of the eight identical calls is marked; nothing after the stop ran.
  await expect(page.getByTestId("repeated-step")).toHaveCount(8);
  await expect(page.getByTestId("run-log")).not.toContainText("never reached");
  await screenshots(page, "run-loop-stopped");
});
