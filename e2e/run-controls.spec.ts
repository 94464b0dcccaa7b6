import { expect, test, type Page } from "@playwright/test";
import { createProject, hydrated, screenshots, signIn } from "./helpers";

type RunRow = { id: string; status: string; prompt: { title: string } | null };

const runsOf = async (page: Page, projectId: string): Promise<RunRow[]> =>
  (await (await page.request.get(`/api/projects/${projectId}/runs`)).json()).runs;

async function addPrompt(page: Page, title: string, body: string) {
  await page.getByRole("button", { name: "New prompt" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Prompt (Markdown)").fill(body);
  await page.getByRole("button", { name: "Add prompt" }).click();
  await expect(page.getByTestId("prompt-card").filter({ hasText: title })).toBeVisible();
}

test("a failed run toasts; cancelling a run and stopping the loop ask first", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  // A project of its own, so stopping its loop and its failing prompt touch no other spec.
  await createProject(page, "Controls e2e");
  const projectId = new URL(page.url()).pathname.split("/")[2];
  await hydrated(page);

  // A run that fails shows a failure toast on the open project page.
  await addPrompt(page, "Fail me", "print failing on purpose\nexit 1\n");
  await page.locator("body").press("o");
  await expect(page.getByTestId("loop-mode")).toHaveText("loop running");
  const failed = page.getByTestId("toasts").locator(".toast.failed");
  await expect(failed).toContainText("Fail me", { timeout: 60_000 });
  await expect(failed).toContainText("✗");
  await expect(page.getByTestId("toasts").locator(".toast.ok")).toHaveCount(0);
  await screenshots(page, "run-failed-toast");

  // Cancel run asks; Keep leaves the agent at work; "Yes, cancel" stops it.
  await addPrompt(page, "Sleep long", "print sleeping\nsleep 600000\n");
  let running: RunRow | undefined;
  await expect.poll(async () => {
    running = (await runsOf(page, projectId)).find((r) => r.prompt?.title === "Sleep long" && r.status === "running");
    return running?.status;
  }, { timeout: 60_000 }).toBe("running");
  await page.goto(`/runs/${running!.id}`);
  await hydrated(page);
  await expect(page.getByTestId("run-status")).toHaveText("running");
  await page.getByRole("button", { name: "Cancel run" }).click();
  const cancelQuestion = page.getByRole("group", { name: "Cancel this run? Its agent is stopped." });
  await expect(cancelQuestion).toBeVisible();
  await screenshots(page, "run-cancel-confirm");
  await cancelQuestion.getByRole("button", { name: "Keep" }).click();
  await expect(cancelQuestion).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cancel run" })).toBeVisible();
  await expect(page.getByTestId("run-status")).toHaveText("running");
  expect((await runsOf(page, projectId)).find((r) => r.id === running!.id)?.status).toBe("running");
  await page.getByRole("button", { name: "Cancel run" }).click();
  await cancelQuestion.getByRole("button", { name: "Yes, cancel" }).click();
  await expect(page.getByTestId("run-status")).toHaveText("cancelled", { timeout: 60_000 });

  // Stop asks; Keep leaves the loop running; "Yes, stop" stops it.
  await page.goto(`/projects/${projectId}`);
  await hydrated(page);
  const mode = page.getByTestId("loop-mode");
  await expect(mode).toHaveText("loop running");
  const controls = page.getByRole("region", { name: "Loop controls" });
  await controls.getByRole("button", { name: "Stop", exact: true }).click();
  const stopQuestion = controls.getByRole("group", { name: "Stop the loop? Running agents finish; nothing new starts." });
  await expect(stopQuestion).toBeVisible();
  await screenshots(page, "loop-stop-confirm");
  await stopQuestion.getByRole("button", { name: "Keep" }).click();
  await expect(stopQuestion).toHaveCount(0);
  await expect(mode).toHaveText("loop running");
  const { project } = await (await page.request.get(`/api/projects/${projectId}`)).json();
  expect(project.loop.mode).toBe("running");
  await controls.getByRole("button", { name: "Stop", exact: true }).click();
  await stopQuestion.getByRole("button", { name: "Yes, stop" }).click();
  await expect(mode).toHaveText("loop stopped");
});
