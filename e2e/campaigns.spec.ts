import { expect, test, type Page } from "@playwright/test";
import { createProject, hydrated, screenshots, signIn } from "./helpers";

// The demo agent plays the architect and the reflector from the goal's scripted answers, and the
// workers from each task's step hints: the whole campaign runs on the real workers.
const plan = {
  tasks: [
    { id: "notes", description: "Write the notes", files: ["notes.md"], stepHints: ["```file notes.md\n# Notes\n```"], exitCriteria: ["notes.md exists"] },
    { id: "index", description: "Link the notes", files: ["index.md"], stepHints: ["```file index.md\nsee notes.md\n```"], dependencies: ["notes"] },
  ],
};
const goal = [
  "Document the project in two small steps.",
  "````answer architect",
  JSON.stringify(plan),
  "````",
  "````answer reflector",
  '{"aligned": true, "reason": "the notes serve the goal"}',
  "````",
].join("\n");

/** A new project with its loop running, on its Campaigns page. */
async function campaignsOfNewProject(page: Page, name: string) {
  await signIn(page);
  await createProject(page, `${name} ${Date.now()}`);
  await hydrated(page);
  await page.locator("body").press("o");
  await expect(page.getByTestId("loop-mode")).toHaveText("loop running");
  await page.getByRole("link", { name: "Campaigns" }).click();
  await expect(page.getByRole("heading", { name: "Campaigns" })).toBeVisible();
  await hydrated(page);
}

/** Starts a campaign from the form and waits for its page. */
async function startCampaign(page: Page, title: string, goalText: string) {
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Goal").fill(goalText);
  await page.getByRole("button", { name: "Start campaign" }).click();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
}

test("a campaign is planned, runs its tasks, is checked for drift and completes", async ({ page }) => {
  test.setTimeout(240_000);
  await campaignsOfNewProject(page, "Campaign e2e");
  // An empty goal is refused beside its field, and nothing is created.
  await page.getByRole("button", { name: "Start campaign" }).click();
  await expect(page.getByText("Goal is required")).toBeVisible();
  await expect(page.getByText("No campaigns yet.")).toBeVisible();
  await screenshots(page, "campaign-new-error");

  await startCampaign(page, "Project notes", goal);
  await expect(page.getByTestId("campaign-phase")).toHaveText("Completed", { timeout: 180_000 });
  await expect(page.getByTestId("campaign-metrics")).toHaveText("2 of 2 tasks done · 0 failed · plan 1");
  await expect(page.getByTestId("task-notes")).toContainText("done");
  await expect(page.getByTestId("task-index")).toContainText("after notes");
  await expect(page.getByText("Milestones reached: 25 %, 50 %")).toBeVisible();
  await expect(page.locator(".campaign-history")).toContainText("Campaign complete!");
  await expect(page.locator(".campaign-history")).toContainText("Drift check: aligned (the notes serve the goal)");
  // A closed campaign has no controls.
  await expect(page.getByRole("button", { name: "Cancel campaign" })).toHaveCount(0);
  await screenshots(page, "campaign-completed");
});

test("a drift sends the campaign back to planning: the re-plan, its reason, the count and the backoff are on its page", async ({ page }) => {
  test.setTimeout(300_000);
  // The reflector finds the work off course at 50 %; the next architect, given the drift, answers no plan.
  const drifting = [
    "Document the project in two small steps.",
    "````answer architect at What went wrong last time",
    "no plan this time",
    "````",
    "````answer architect",
    JSON.stringify(plan),
    "````",
    "````answer reflector at Milestone: 50 %",
    '{"aligned": false, "reason": "the notes describe another project"}',
    "````",
    "````answer reflector",
    '{"aligned": true, "reason": "on track"}',
    "````",
  ].join("\n");
  await campaignsOfNewProject(page, "Campaign drift e2e");
  await startCampaign(page, "Drifting notes", drifting);

  // The drift first (a failure here says the campaign never got to its check at 50 %)...
  await expect(page.locator(".campaign-replans li")).toHaveCount(1, { timeout: 180_000 });
  // ...then each architect run after it waits the project's 10 s cooldown and more: the page says until when.
  await expect(page.getByTestId("campaign-plan-after")).toContainText("Backing off: the next architect run starts no earlier than", { timeout: 60_000 });
  await expect(page.getByTestId("campaign-phase")).toHaveText("Planning");
  await expect(page.getByTestId("campaign-replans")).toHaveText(
    "1 re-plan in all · 1 of 5 automatic re-plans in a row without progress (one more fails the campaign; a task completed by a plan that did not drift starts the count again)");
  await expect(page.locator(".campaign-replans li")).toHaveCount(1);
  await expect(page.locator(".campaign-replans li").first()).toContainText("drift DRIFT DETECTED: the notes describe another project");
  await expect(page.getByTestId("task-index")).toContainText("cancelled");
  await screenshots(page, "campaign-replan-backoff");

  // The controls: re-plan now waits for a plan to exist; pause and start again; cancel.
  await expect(page.getByRole("button", { name: "Re-plan now" })).toBeDisabled();
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByTestId("campaign-phase")).toHaveText("Planning (paused)");
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByTestId("campaign-phase")).toHaveText("Planning");
  await page.getByRole("button", { name: "Cancel campaign" }).click();
  await expect(page.getByTestId("campaign-phase")).toHaveText("Cancelled");
  await expect(page.getByTestId("campaign-plan-after")).toHaveCount(0);
});

test("a drift check whose runs fail runs again, then gives up and lets the work go on: each failure is in the history", async ({ page }) => {
  test.setTimeout(240_000);
  // Only the reflector exits 1: the architect plans and the workers write the files as before.
  const failingCheck = goal.replace("Document the project in two small steps.", "Document the project in two small steps.\nexit 1 as reflector");
  await campaignsOfNewProject(page, "Campaign drift check e2e");
  await startCampaign(page, "Unchecked notes", failingCheck);

  await expect(page.getByTestId("campaign-phase")).toHaveText("Completed", { timeout: 180_000 });
  await expect(page.getByTestId("campaign-metrics")).toHaveText("2 of 2 tasks done · 0 failed · plan 1");
  const failures = page.locator(".campaign-history li").filter({ hasText: "Drift check did not finish" });
  await expect(failures).toHaveCount(3);
  await expect(failures.nth(0)).toContainText("it runs again (1 of 3 runs failed)");
  await expect(failures.nth(1)).toContainText("it runs again (2 of 3 runs failed)");
  await expect(failures.nth(2)).toContainText("given up after 3 failed runs, the work goes on");
  await expect(page.locator(".campaign-history")).toContainText("drift check queued again (2 failed)");
  await expect(page.locator(".campaign-history")).not.toContainText("Drift check: aligned");
  await expect(page.getByTestId("task-index")).toContainText("done");
  await screenshots(page, "campaign-drift-check-failed");
});
