import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { makeRepo, screenshots, signIn } from "./helpers";

// The real runner process against the real web app and workers: it holds only the server's URL
// and a runner token (no database or Redis settings in its environment).
function startRunner(url: string, token: string): ChildProcess & { output: () => string } {
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "runner/main.ts", "--url", url, "--name", "laptop", "--capabilities", "ts,docs", "--work-dir", mkdtempSync(join(tmpdir(), "rm-runner-"))], {
    cwd: join(import.meta.dirname, ".."),
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, RINGMASTER_RUNNER_TOKEN: token } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c) => { output += c.toString(); });
  child.stderr!.on("data", (c) => { output += c.toString(); });
  return Object.assign(child, { output: () => output });
}

test("a runner token, a remote runner doing a project's work end to end, the Runners page, revoking the runner", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await signIn(page);

  // An admin creates a runner token on the tokens page; it is shown once.
  await page.goto("/team/tokens");
  await page.getByLabel("Kind").selectOption("runner");
  await page.getByLabel("Name").fill("laptop runner");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!.trim();
  expect(token).toMatch(/^rm_runner_/);
  await expect(page.getByTestId("tokens")).toContainText("laptop runner");
  await screenshots(page, "runner-token");

  // A project on a local repository whose executor runs go to remote runners.
  await page.goto("/");
  await page.getByRole("link", { name: "New project" }).click();
  await page.getByLabel("Name").fill("Remote e2e");
  const repo = makeRepo();
  await page.getByLabel("Repository path").fill(repo);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { name: "Remote e2e" })).toBeVisible();
  const projectUrl = page.url();
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Run executors on remote runners (they pull work over HTTP)").check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: /saved/i })).toBeVisible();

  const runner = startRunner(baseURL!, token);
  try {
    await expect.poll(() => runner.output(), { timeout: 30_000 }).toContain('registered as "laptop"');
    await page.goto("/runners");
    await expect(page.getByTestId("runners")).toContainText("laptop");
    await expect(page.getByTestId("runners")).toContainText("online");

    await page.goto(projectUrl);
    await page.getByRole("button", { name: "New prompt" }).click();
    await page.getByLabel("Title").fill("Write from afar");
    // Its agent also reports through Ringmaster's MCP endpoint (a failed MCP call fails the run).
    // One model call with cache reads and writes: the runner's report carries every token figure.
    await page.getByLabel("Prompt (Markdown)").fill('print working remotely\nusage 1000 200 300 50\nmcp report_progress {"text":"halfway, from afar"}\nsleep 1500\n\n```file remote.txt\nwritten by a runner\n```\n');
    await page.getByRole("button", { name: "Add prompt" }).click();
    await page.locator("body").press("o");
    await expect(page.getByTestId("loop-mode")).toHaveText("loop running");

    // The runner takes the run, streams its log, pushes its branch; the server merges it.
    await expect(page.getByTestId("running-agent").first()).toBeVisible({ timeout: 30_000 });
    await page.getByTestId("running-agent").first().getByRole("link").click();
    await expect(page.getByTestId("run-log")).toContainText("working remotely", { timeout: 30_000 });
    await expect(page.getByTestId("run-status")).toHaveText("merged", { timeout: 30_000 });
    // The project's repository is a folder on the server: the branch came back as a git bundle.
    await expect(page.getByTestId("run-log")).toContainText("[runner] handed back");
    await expect(page.getByTestId("run-log")).toContainText("its MCP config pointed at the server's /api/mcp");
    // The CLI's session id and the cached tokens came through the runner's report.
    await expect(page.getByTestId("run-session-id")).toHaveText(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    await expect(page.getByTestId("run-token-split")).toHaveText("1,350 in (300 cached, 50 written to the cache) · 200 out");
    await screenshots(page, "remote-run");
    await expect.poll(() => {
      try { return execFileSync("git", ["show", "main:remote.txt"], { cwd: repo }).toString(); } catch { return ""; }
    }, { timeout: 30_000 }).toBe("written by a runner\n");
    expect(runner.output()).toMatch(/run \S+: succeeded \([0-9a-f]{7} handed back as a bundle on ringmaster\/1-write-from-afar\); report applied/);
    expect(runner.output()).not.toContain(token);

    // The Agents page lists the CLIs the runner reported (those on this machine's PATH).
    await page.goto("/profiles");
    const runnerClis = page.getByRole("region", { name: "Agent CLIs on runners" });
    await expect(runnerClis.locator('tr[data-runner="laptop"]')).toContainText("online");
    const reported = runner.output().match(/agent CLIs here: (.*)/)![1];
    if (reported === "none found on PATH") await expect(runnerClis.locator('tr[data-runner="laptop"]')).toContainText("none reported");
    else for (const cli of reported.split(", ")) await expect(runnerClis.locator('tr[data-runner="laptop"]')).toContainText(cli.split(" ")[0]);
    await screenshots(page, "agent-clis-runners");

    // The Runners page shows it; revoking its token there cuts it off.
    await page.goto("/runners");
    await expect(page.getByTestId("runners")).toContainText("laptop");
    await screenshots(page, "runners");
    page.once("dialog", (d) => d.accept());
    // Other specs' runners may be listed too (specs share one database): this one's row.
    await page.getByRole("row", { name: /^laptop worker/ }).getByRole("button", { name: "Revoke token" }).click();
    await expect(page.getByTestId("runners")).toContainText("token revoked");
    await expect.poll(() => runner.exitCode, { timeout: 60_000 }).toBe(1);
    expect(runner.output()).toContain("401");
  } finally {
    if (runner.exitCode === null) runner.kill("SIGTERM");
  }
});
