import { expect, test, type Page } from "@playwright/test";
import { screenshots, signIn } from "./helpers";

const demoProjectId = async (page: Page) => {
  const res = await page.request.get("/api/projects");
  expect(res.status()).toBe(200);
  const { projects } = await res.json();
  return projects as Array<{ id: string; name: string }>;
};

test("forms keep every value after an error and name each bad field in words", async ({ page }) => {
  await signIn(page);

  // A token refused for two fields keeps its role and its project scope, and shows both errors.
  const [project] = await demoProjectId(page);
  await page.goto("/team/tokens");
  const tokenForm = page.getByRole("form", { name: "New token" });
  await tokenForm.getByLabel("Role").selectOption("viewer");
  await tokenForm.getByLabel("Project").selectOption(project.id);
  await tokenForm.getByLabel("Expires after (days)").fill("999");
  await tokenForm.getByRole("button", { name: "Create token" }).click();
  await expect(tokenForm.locator(".field.invalid")).toHaveCount(2);
  await expect(tokenForm.locator(".field.invalid").nth(0)).toContainText("Name is required");
  await expect(tokenForm.locator(".field.invalid").nth(1)).toContainText("Expires after (days) must be a whole number from 1 to 365 days");
  await expect(tokenForm.getByLabel("Role")).toHaveValue("viewer");
  await expect(tokenForm.getByLabel("Project")).toHaveValue(project.id);
  await expect(tokenForm.getByLabel("Expires after (days)")).toHaveValue("999");
  await screenshots(page, "token-form-errors");

  // An invitation refused keeps the narrower role chosen.
  await page.goto("/team");
  const invite = page.getByRole("form", { name: "New invitation" });
  await invite.getByLabel("Role").selectOption("viewer");
  await invite.getByLabel("Email (optional)").fill("not-an-address");
  await invite.getByRole("button", { name: "Create invitation link" }).click();
  await expect(invite.locator(".field.invalid")).toContainText("Email must be a valid email address");
  await expect(invite.getByLabel("Role")).toHaveValue("viewer");
  await expect(invite.getByLabel("Email (optional)")).toHaveValue("not-an-address");

  // A dependency on a prompt that does not exist is refused with its number; the draft stays.
  await page.goto(`/projects/${project.id}`);
  await page.getByRole("button", { name: "New prompt" }).click();
  await page.getByLabel("Title").fill("Needs a ghost");
  await page.getByLabel("Depends on").fill("1, 999");
  await page.getByRole("button", { name: "Add prompt" }).click();
  await expect(page.locator(".field.invalid")).toContainText("Depends on names prompt #999, which does not exist");
  await expect(page.getByLabel("Title")).toHaveValue("Needs a ghost");
  await expect(page.getByLabel("Depends on")).toHaveValue("1, 999");
  await screenshots(page, "prompt-form-errors");

  // Settings: every bad field gets its own sentence.
  await page.goto(`/projects/${project.id}/settings`);
  await page.getByLabel("Parallel agents", { exact: false }).fill("0");
  await page.getByLabel("Retry limit", { exact: false }).fill("99");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.locator(".field.invalid").filter({ hasText: "Parallel agents must be a whole number ≥ 1" })).toBeVisible();
  await expect(page.locator(".field.invalid").filter({ hasText: "Retry limit must be a whole number ≤ 10" })).toBeVisible();
  await expect(page.getByLabel("Retry limit", { exact: false })).toHaveValue("99");
  await screenshots(page, "settings-form-errors");
});

test("a person creates a second team and switches; each team sees only its own things", async ({ page }) => {
  await signIn(page);
  const [demo] = await demoProjectId(page);
  await page.goto("/team");
  await page.getByRole("form", { name: "New team" }).getByLabel("Team name").fill("Night shift");
  await page.getByRole("button", { name: "Create team" }).click();

  // The new team is current: an empty project list, in the page and from the API.
  await page.waitForURL((u) => u.pathname === "/");
  const switcher = page.getByRole("combobox", { name: "Team", exact: true });
  await expect(switcher.locator("option:checked")).toHaveText("Night shift");
  await expect(page.getByText(demo.name)).toHaveCount(0);
  expect(await demoProjectId(page)).toEqual([]);
  await screenshots(page, "team-switcher-new-team");

  // The other team's project is not found, for the page and for the API.
  expect((await page.goto(`/projects/${demo.id}`))!.status()).toBe(404);
  const foreign = await page.request.get(`/api/projects/${demo.id}`);
  expect(foreign.status()).toBe(404);
  expect((await foreign.json()).error.code).toBe("not_found");
  const agents = await page.request.get("/api/agent-profiles");
  expect((await agents.json()).profiles).toEqual([]);

  // Switching back shows the first team's project again, everywhere.
  await page.goto("/");
  await switcher.selectOption({ label: (await switcher.locator("option").first().textContent())! });
  await expect(page.getByRole("link", { name: demo.name })).toBeVisible();
  expect((await demoProjectId(page)).map((p) => p.id)).toContain(demo.id);
  expect((await page.request.get(`/api/projects/${demo.id}`)).status()).toBe(200);
  await screenshots(page, "team-switcher");
});

test("unknown API paths answer JSON, ? opens the shortcut help, the board starts with placeholders", async ({ page }) => {
  await signIn(page);
  const nope = await page.request.get("/api/no/such/thing");
  expect(nope.status()).toBe(404);
  expect(await nope.json()).toEqual({ error: { code: "not_found", message: "no such API endpoint" } });

  const [project] = await demoProjectId(page);
  // The server-rendered first paint: placeholders, never a count of zero done prompts.
  const html = await (await page.request.get(`/projects/${project.id}`)).text();
  expect(html).toContain('data-testid="board-loading"');
  expect(html).not.toContain('data-testid="column-done"');

  await page.goto(`/projects/${project.id}`);
  await expect(page.getByTestId("column-done")).toBeVisible();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help).toContainText("turn the loop on or off");
  await screenshots(page, "shortcut-help");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  // The demo project's loop runs: a new prompt's run ends in a toast on the open project page.
  await page.getByRole("button", { name: "New prompt" }).click();
  await page.getByLabel("Title").fill("Toast me");
  await page.getByLabel("Prompt (Markdown)").fill("print toasting\n\n```file toast.txt\ntoast\n```\n");
  await page.getByRole("button", { name: "Add prompt" }).click();
  await expect(page.getByTestId("toasts")).toContainText("Toast me", { timeout: 60_000 });
  await screenshots(page, "run-toast");

  // Waiting approvals are counted in the navigation and filtered by project and kind.
  await page.goto(`/projects/${project.id}/settings`);
  await page.getByLabel("Approval before a prompt runs").selectOption("all");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await page.goto(`/projects/${project.id}`);
  await page.getByRole("button", { name: "New prompt" }).click();
  await page.getByLabel("Title").fill("Wait for me");
  await page.getByRole("button", { name: "Add prompt" }).click();
  await expect(page.getByTestId("prompt-card").filter({ hasText: "Wait for me" })).toBeVisible();
  await page.goto("/approvals");
  const waiting = (await page.getByRole("heading", { name: /^Waiting/ }).textContent())!.match(/\((\d+)\)/)![1];
  expect(Number(waiting)).toBeGreaterThan(0);
  await expect(page.getByTestId("pending-approvals")).toHaveText(waiting);
  await page.getByRole("form", { name: "Filter approvals" }).getByLabel("Kind").selectOption("pr_merge");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("approval")).toHaveCount(0);
  await page.getByRole("form", { name: "Filter approvals" }).getByLabel("Kind").selectOption("prompt_run");
  await page.getByRole("button", { name: "Filter" }).click();
  const waitingCard = page.getByTestId("approval").filter({ hasText: "Wait for me" });
  await expect(waitingCard.getByRole("link", { name: project.name })).toHaveAttribute("href", `/projects/${project.id}`);
  await screenshots(page, "approvals-filtered");
  // Not followed: opening a prompt page starts its conversation, and the threads spec expects none.
  await expect(waitingCard.getByRole("link", { name: /Wait for me/ })).toHaveAttribute("href", /^\/prompts\/[a-z0-9-]+$/);

  // Deleting asks first; an unused profile goes.
  await page.goto("/profiles");
  const form = page.getByRole("form", { name: "New profile" });
  await form.getByLabel(/^Name/).fill("Throwaway");
  await form.getByLabel(/^Adapter/).selectOption("shell");
  await form.getByRole("textbox", { name: /^Command template/ }).fill(`my-agent "{prompt}"`);
  await form.getByRole("button", { name: "Create profile" }).click();
  await expect(form.locator(".field.invalid")).toContainText("Command template must not put {prompt} in quotes");
  await form.getByRole("textbox", { name: /^Command template/ }).fill("my-agent {prompt}");
  await form.getByRole("button", { name: "Create profile" }).click();
  const card = page.getByRole("form", { name: "Profile Throwaway" });
  await card.getByRole("button", { name: "Delete" }).click();
  await expect(card.getByRole("group", { name: /^Delete Throwaway\?/ })).toBeVisible();
  await screenshots(page, "profile-delete-confirm");
  await card.getByRole("button", { name: "Keep" }).click();
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: "Delete" }).click();
  await card.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByRole("form", { name: "Profile Throwaway" })).toHaveCount(0);
});
