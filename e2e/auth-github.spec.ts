// "Sign in with GitHub" end to end against a local double of GitHub's OAuth flow, reached the
// way GitHub Enterprise Server is (AUTH_GITHUB_URL). This spec starts its own web server on
// its own database, since the shared app runs without a GitHub provider.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { GithubOAuthDouble, type GithubPerson } from "@/test/helpers/github-oauth-double";
import { FreshApp, query } from "./fresh-app";

const web = new FreshApp(2, "github");
const { base, dbUrl } = web;
const app = { clientId: "Iv1.e2e0a1b2c3d4e5f6", clientSecret: randomBytes(20).toString("hex"), callbackUrl: `${base}/api/auth/callback/github` };
const double = new GithubOAuthDouble(app);

// Grace keeps her email private on GitHub, so the app has to ask /user/emails for it.
const grace: GithubPerson = {
  id: 583231, login: "ghopper", name: "Grace Hopper", email: null,
  emails: [
    { email: "grace@users.noreply.example.test", primary: false, verified: true, visibility: null },
    { email: "grace@example.test", primary: true, verified: true, visibility: "private" },
  ],
};
const stranger: GithubPerson = {
  id: 9_100_200, login: "mallory", name: "Mallory Stranger", email: "mallory@example.test",
  emails: [{ email: "mallory@example.test", primary: true, verified: true, visibility: "public" }],
};

test.beforeAll(async () => {
  test.setTimeout(90_000);
  await double.start();
  await web.create();
  // Grace linked her GitHub account earlier; she has no password.
  await query(dbUrl, `
    WITH t AS (INSERT INTO "Team" (id, name, slug) VALUES ('team_gh', 'Compilers', 'compilers')),
         u AS (INSERT INTO "User" (id, email, name, "updatedAt") VALUES ('user_grace', 'grace@example.test', 'Grace Hopper', now())),
         m AS (INSERT INTO "Membership" (id, "teamId", "userId", role) VALUES ('mem_grace', 'team_gh', 'user_grace', 'owner'))
    INSERT INTO "Account" (id, "userId", type, provider, "providerAccountId") VALUES ('acct_grace', 'user_grace', 'oauth', 'github', $1)`,
  [String(grace.id)]);
  await web.start({ AUTH_GITHUB_ID: app.clientId, AUTH_GITHUB_SECRET: app.clientSecret, AUTH_GITHUB_URL: double.url });
});

test.afterAll(async () => {
  await web.remove();
  await double.stop();
});

test.beforeEach(() => {
  double.requests.length = 0;
});

test("a person with a linked GitHub account signs in with GitHub and lands on the dashboard", async ({ page }) => {
  double.signedIn = grace;
  await page.goto(`${base}/login`);
  const button = page.getByRole("button", { name: "Sign in with GitHub" });
  await expect(button).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/login-github.png", fullPage: true });
  await button.click();

  await page.waitForURL((u) => u.origin === base && u.pathname === "/");
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await expect(page.locator("header.top")).toContainText("Compilers");
  await expect(page.locator("header.top .who")).toHaveText("grace@example.test");
  const session = await (await page.request.get(`${base}/api/auth/session`)).json();
  expect(session.user).toMatchObject({ id: "user_grace", email: "grace@example.test" });

  // The browser went through GitHub's authorize page with our app and callback, using PKCE.
  const [authorize] = double.calls("/login/oauth/authorize");
  expect(authorize.query).toMatchObject({
    client_id: app.clientId, redirect_uri: app.callbackUrl, response_type: "code", scope: "read:user user:email", code_challenge_method: "S256",
  });
  // The server exchanged the code as the registered app, then read the profile and, the
  // profile email being private, the email list with the token it got.
  const exchanges = double.calls("/login/oauth/access_token");
  expect(exchanges).toHaveLength(1);
  expect(exchanges[0]).toMatchObject({ method: "POST", clientId: app.clientId, accept: "application/json" });
  expect(exchanges[0].body).toMatchObject({ grant_type: "authorization_code", redirect_uri: app.callbackUrl });
  expect(exchanges[0].body.code).toMatch(/^[0-9a-f]{20}$/);
  expect(exchanges[0].body.code_verifier).toBeTruthy();
  const [user] = double.calls("/api/v3/user");
  const [emails] = double.calls("/api/v3/user/emails");
  expect(user.authorization).toMatch(/^Bearer gho_[0-9a-f]{36}$/);
  expect(emails.authorization).toBe(user.authorization);

  // Signing in linked nothing new: Grace is still the only user, with her one GitHub account.
  expect(await query(dbUrl, `SELECT "userId", "providerAccountId" FROM "Account"`)).toEqual([{ userId: "user_grace", providerAccountId: String(grace.id) }]);
});

test("a GitHub account that is not linked and brings no invitation is refused and gets no user", async ({ page }) => {
  double.signedIn = stranger;
  await page.goto(`${base}/login`);
  await page.getByRole("button", { name: "Sign in with GitHub" }).click();

  // Auth.js sends a refused sign-in to the error page, which is the login page.
  await page.waitForURL((u) => u.origin === base && u.pathname === "/login" && u.searchParams.has("error"));
  expect(new URL(page.url()).searchParams.get("error")).toBe("AccessDenied");
  await expect(page.locator(".auth-card [role=alert]")).toHaveText("That GitHub account is not a member here. Ask for an invitation link.");
  await page.screenshot({ path: "test-results/screenshots/login-github-refused.png", fullPage: true });
  expect((await (await page.request.get(`${base}/api/auth/session`)).json())?.user).toBeUndefined();
  await page.goto(`${base}/`);
  await expect(page).toHaveURL(/\/login/);

  // GitHub vouched for the stranger (the exchange succeeded as our app); our rule said no.
  const exchanges = double.calls("/login/oauth/access_token");
  expect(exchanges.map((r) => r.clientId)).toEqual([app.clientId]);
  expect(double.calls("/api/v3/user")).toHaveLength(1);
  expect(await query(dbUrl, `SELECT email FROM "User" ORDER BY email`)).toEqual([{ email: "grace@example.test" }]);
  expect(await query(dbUrl, `SELECT count(*)::int AS n FROM "Account" WHERE "providerAccountId" = $1`, [String(stranger.id)])).toEqual([{ n: 0 }]);
});
