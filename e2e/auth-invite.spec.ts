import { expect, test, type Page } from "@playwright/test";
import { hydrated } from "./helpers";

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/");
  await expect(page.locator("header.top")).toBeVisible();
  await hydrated(page);
}

test("an owner invites a viewer, who joins and can read but not run the loop or approve", async ({ page, browser, baseURL }) => {
  await signIn(page, process.env.E2E_EMAIL!, process.env.E2E_PASSWORD!);
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Team" }).click();
  await expect(page.getByRole("heading", { name: /^Team · / })).toBeVisible();

  await page.locator("select[name=role]").selectOption("viewer");
  await page.getByLabel("Expires after (hours)").fill("0");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  await expect(page.locator(".field.invalid")).toContainText("Expires after (hours) must be a whole number from 1 to 720 hours");
  // What was typed stays after a field's error; a created invitation clears the form.
  await expect(page.locator("select[name=role]")).toHaveValue("viewer");
  await expect(page.getByLabel("Expires after (hours)")).toHaveValue("0");
  await page.getByLabel("Expires after (hours)").fill("24");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = (await page.getByTestId("invite-link").textContent())!;
  await expect(page.getByLabel("Expires after (hours)")).toHaveValue("72");
  expect(link).toContain(`${baseURL}/invite/rm_inv_`);
  await expect(page.getByTestId("invitations")).toContainText("open");
  await page.screenshot({ path: "test-results/screenshots/team-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/team-phone.png", fullPage: true });

  const guest = await browser.newContext({ baseURL });
  const viewer = await guest.newPage();
  await viewer.goto(new URL(link).pathname);
  await expect(viewer.getByRole("heading", { name: "Join Demo team" })).toBeVisible();
  await expect(viewer.getByText("You are invited as viewer")).toBeVisible();
  await viewer.screenshot({ path: "test-results/screenshots/invite.png", fullPage: true });
  await viewer.getByLabel("Your name").fill("Vera Viewer");
  await viewer.getByLabel("Email").fill(process.env.E2E_EMAIL!);
  await viewer.getByLabel("Password").fill("viewer password 123");
  await viewer.getByRole("button", { name: "Create account and join" }).click();
  // An email with an account joins only with that account's password; the page never says it has one.
  await expect(viewer.locator("form [role=alert]")).toHaveText("Email or password is incorrect.");
  await expect(viewer.getByText(/has an account/)).toHaveCount(0);
  await viewer.getByLabel("Email").fill("vera@example.test");
  await viewer.getByLabel("Password").fill("viewer password 123");
  await viewer.getByRole("button", { name: "Create account and join" }).click();
  await viewer.waitForURL((u) => u.pathname === "/");
  await expect(viewer.locator("header.top")).toBeVisible();

  // The link is used up.
  const again = await browser.newPage({ baseURL });
  await again.goto(new URL(link).pathname);
  await expect(again.getByText("This invitation has already been used.")).toBeVisible();
  await again.close();

  // A viewer reads but cannot toggle the loop (the server refuses too) or approve.
  const { projects } = await (await viewer.request.get("/api/projects")).json();
  const demo = projects.find((p: { name: string }) => p.name === "Demo app");
  await viewer.goto(`/projects/${demo.id}`);
  await expect(viewer.getByRole("switch", { name: /Loop/ })).toBeDisabled();
  await expect(viewer.getByTestId("why-disabled")).toHaveText("You can watch this project; operators, admins and owners control its loop.");
  const toggle = await viewer.request.post(`/api/projects/${demo.id}/loop`, { data: { action: "stop" }, headers: { origin: baseURL! } });
  expect(toggle.status()).toBe(403);
  expect((await toggle.json()).error.code).toBe("forbidden");
  // The settings form and the profiles page are read-only for a viewer, and each says why.
  await viewer.goto(`/projects/${demo.id}/settings`);
  await expect(viewer.getByTestId("why-disabled")).toHaveText("Admins and owners change these settings; you can read them.");
  await expect(viewer.getByRole("button", { name: "Save settings" })).toBeDisabled();
  await expect(viewer.getByLabel("Parallel agents", { exact: false })).toBeDisabled();
  await viewer.screenshot({ path: "test-results/screenshots/settings-viewer.png", fullPage: true });
  await viewer.goto("/profiles");
  const demoProfile = viewer.getByRole("form", { name: "Profile Demo agent" });
  await expect(demoProfile.getByTestId("why-disabled")).toHaveText("Admins and owners change agent profiles; you can read them.");
  await expect(demoProfile.getByLabel(/^Name/)).toBeDisabled();
  await expect(demoProfile.getByRole("button", { name: "Save profile" })).toHaveCount(0);
  await expect(viewer.getByRole("form", { name: "New profile" })).toHaveCount(0);
  await viewer.screenshot({ path: "test-results/screenshots/profiles-viewer.png", fullPage: true });
  await viewer.goto("/approvals");
  await expect(viewer.getByRole("heading", { name: "Approvals" })).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(viewer.getByLabel("Prompt approval for Demo app")).toBeDisabled();
  await viewer.goto("/audit");
  await expect(viewer.getByText("Only owners and admins read the audit log.")).toBeVisible();
  await guest.close();

  // The owner sees the new member and the trail in the audit log.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await expect(page.getByTestId("members")).toContainText("vera@example.test");
  await page.goto("/audit");
  await expect(page.getByTestId("audit")).toContainText("member.joined");
  await expect(page.getByTestId("audit")).toContainText("invitation.created");
  await page.screenshot({ path: "test-results/screenshots/audit-desktop.png", fullPage: true });
});

test("a cookie session's mutating request from another origin is refused", async ({ page, baseURL }) => {
  await signIn(page, process.env.E2E_EMAIL!, process.env.E2E_PASSWORD!);
  const { projects } = await (await page.request.get("/api/projects")).json();
  const id = projects[0].id;
  const forged = await page.request.post(`/api/projects/${id}/loop`, { data: { action: "tick" }, headers: { origin: "http://evil.example" } });
  expect(forged.status()).toBe(403);
  expect((await forged.json()).error.code).toBe("cross_site");
  const noOrigin = await page.request.post("/api/invitations", { data: { role: "viewer" } });
  expect(noOrigin.status()).toBe(403);
  const same = await page.request.post(`/api/projects/${id}/loop`, { data: { action: "tick" }, headers: { origin: baseURL! } });
  expect(same.status()).toBe(202);
});

test("an admin creates an API token, shown once, that works until revoked", async ({ page, baseURL, playwright }) => {
  await signIn(page, process.env.E2E_EMAIL!, process.env.E2E_PASSWORD!);
  await page.goto("/team/tokens");
  await hydrated(page);
  await expect(page.getByText("No API tokens yet")).toBeVisible();
  await page.getByLabel("Role").selectOption("viewer");
  await page.getByLabel("Expires after (days)").fill("30");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.locator(".field.invalid")).toContainText("Name is required");
  await expect(page.getByLabel("Role")).toHaveValue("viewer");
  await expect(page.getByLabel("Expires after (days)")).toHaveValue("30");
  await page.getByLabel("Name").fill("CI runner");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!;
  expect(token).toMatch(/^rm_api_/);
  await expect(page.getByTestId("tokens")).toContainText("CI runner");
  await expect(page.getByTestId("tokens")).not.toContainText(token);

  const ci = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await ci.get("/api/projects")).status()).toBe(200);
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("tokens").getByText("never")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/tokens-desktop.png", fullPage: true });
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByTestId("tokens")).toContainText("revoked");
  expect((await ci.get("/api/projects")).status()).toBe(401);
  await ci.dispose();
});
