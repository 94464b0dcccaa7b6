// Security headers on pages and API answers, the CSP not breaking the app, and the forwarded
// headers of a client (not a trusted proxy) ignored by the real web server.
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const common = (headers: Record<string, string>) => {
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toContain("default-src 'self'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-powered-by"]).toBeUndefined();
};

test("every page and API answer carries the security headers; API JSON is never stored", async ({ request }) => {
  for (const path of ["/login", "/api/health", "/api/projects", "/api/projects/%00", "/no-such-page"]) {
    const res = await request.get(path);
    common(res.headers());
    if (path.startsWith("/api/")) expect(res.headers()["cache-control"], path).toBe("no-store");
  }
  expect((await request.get("/api/projects/%00")).status()).toBeLessThan(500);
});

test("the signed-in dashboard works under the CSP, with no violations", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()); });
  await signIn(page);
  await page.getByTestId("project-card").filter({ hasText: "Demo app" }).click();
  await expect(page.getByRole("heading", { name: "Demo app" })).toBeVisible();
  // The live stream keeps its own caching rule (no-transform: no proxy may buffer or compress it).
  const sse = await page.evaluate(async () => {
    const abort = new AbortController();
    const res = await fetch("/api/events", { signal: abort.signal });
    const headers = { cache: res.headers.get("cache-control"), csp: res.headers.get("content-security-policy") };
    abort.abort();
    return headers;
  });
  expect(sse.cache).toContain("no-transform");
  expect(sse.csp).toContain("frame-ancestors 'none'");
  expect(violations).toEqual([]);
});

test("a cross-site or null Origin cannot change anything with the session cookie", async ({ page }) => {
  await signIn(page);
  for (const origin of ["null", "http://evil.test", "https://127.0.0.1:" + new URL(page.url()).port]) {
    const res = await page.request.post("/api/account/sign-out-everywhere", { headers: { origin } });
    expect(res.status(), origin).toBe(403);
    expect((await res.json()).error.code).toBe("cross_site");
  }
  // A client's X-Forwarded-Host does not make a foreign Origin ours.
  const forged = await page.request.post("/api/account/sign-out-everywhere", { headers: { origin: "http://evil.test", "x-forwarded-host": "evil.test" } });
  expect(forged.status()).toBe(403);
});
