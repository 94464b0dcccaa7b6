import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { makeRepo, screenshots, signIn } from "./helpers";

// A real runner process that holds only the server's URL and a runner token. Its capabilities
// ("docs") do not match the prompt's domain ("gpu"), so it never takes that prompt from the pool:
// only an operator's offer from the Runners page gives it to this runner.
function startRunner(url: string, token: string): ChildProcess & { output: () => string } {
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "runner/main.ts", "--url", url, "--name", "offer-box", "--capabilities", "docs", "--work-dir", mkdtempSync(join(tmpdir(), "rm-runner-"))], {
    cwd: join(import.meta.dirname, ".."),
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, RINGMASTER_RUNNER_TOKEN: token } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c) => { output += c.toString(); });
  child.stderr!.on("data", (c) => { output += c.toString(); });
  return Object.assign(child, { output: () => output });
}

test("an operator offers a waiting prompt to one runner from the Runners page; the runner accepts it and does the work", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto("/team/tokens");
  await page.getByLabel("Kind").selectOption("runner");
  await page.getByLabel("Name").fill("offer runner");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!.trim();

  await page.goto("/");
  await page.getByRole("link", { name: "New project" }).click();
  await page.getByLabel("Name").fill("Offer e2e");
  const repo = makeRepo();
  await page.getByLabel("Repository path").fill(repo);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { name: "Offer e2e" })).toBeVisible();
  const projectUrl = page.url();
  const projectId = projectUrl.split("/").pop()!;
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Run executors on remote runners (they pull work over HTTP)").check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: /saved/i })).toBeVisible();

  const runner = startRunner(baseURL!, token);
  try {
    await expect.poll(() => runner.output(), { timeout: 30_000 }).toContain('registered as "offer-box"');
    const created = await page.request.post(`/api/projects/${projectId}/prompts`, {
      headers: { origin: baseURL! },
      data: { title: "Train on the GPU", domain: "gpu", body: "print offered and accepted\n\n```file offered.txt\ndone by the runner it was offered to\n```\n" },
    });
    expect(created.status()).toBe(201);
    await page.goto(projectUrl);
    await page.locator("body").press("o");
    await expect(page.getByTestId("loop-mode")).toHaveText("loop running");

    // The run waits in the pool (no runner has "gpu"): the Runners page lists it to offer.
    await page.goto("/runners");
    const row = page.getByTestId("runners").getByRole("row").filter({ hasText: "offer-box" });
    const choice = row.getByLabel("Prompt to offer");
    await expect(async () => {
      await page.reload();
      await expect(choice).toContainText("Offer e2e · #1 Train on the GPU", { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    expect(runner.output()).not.toContain("offered");
    await choice.selectOption({ label: "Offer e2e · #1 Train on the GPU" });
    await screenshots(page, "runner-offer-before");
    await row.getByRole("button", { name: "Offer" }).click();
    await expect(row.getByRole("status")).toHaveText("Offered");

    // The runner's long-poll answers with the offer at once; it accepts and runs the prompt.
    await expect.poll(() => runner.output(), { timeout: 30_000 }).toMatch(/offered \S+: accepting/);
    await expect.poll(() => runner.output(), { timeout: 60_000 }).toMatch(/run \S+: succeeded \([0-9a-f]{7} handed back as a bundle on ringmaster\/1-train-on-the-gpu\); report applied/);
    await page.goto(projectUrl);
    await expect.poll(() => {
      try { return execFileSync("git", ["show", "main:offered.txt"], { cwd: repo }).toString(); } catch { return ""; }
    }, { timeout: 30_000 }).toBe("done by the runner it was offered to\n");
    await page.goto("/runners");
    await expect(page.getByTestId("runners").getByRole("row").filter({ hasText: "offer-box" })).toContainText("online");
    await screenshots(page, "runner-offer-after");
    expect(runner.output()).not.toContain(token);
  } finally {
    if (runner.exitCode === null) runner.kill("SIGTERM");
  }
});
