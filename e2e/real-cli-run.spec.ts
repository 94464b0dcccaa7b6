import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { cachedCli } from "../test/helpers/agent-cli-cache";
import { startChatDouble } from "../test/helpers/chat-double";
import { makeRepo, screenshots, signIn } from "./helpers";

// A real agent CLI, the pi coding agent (pinned, installed into the test cache), does a project's
// work end to end against a local double of an OpenAI-compatible model API. It is not installed
// on the server, so its profile is refused until a runner is online; that runner has it.
const PI = "0.73.1";

test("a real CLI's run: its profile refused where the CLI is missing, saved with a warning once a runner is online, its steps on the run page", async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const cli = await cachedCli("@mariozechner/pi-coding-agent", PI);
  test.skip("skip" in cli, "skip" in cli ? cli.skip : "");
  const bin = (cli as { bin: string }).bin;
  const double = await startChatDouble("127.0.0.1", {
    call: () => ({ name: "bash", arguments: { command: "printf 'hello from pi\\n' > hello.txt" } }),
    answer: "Wrote hello.txt.",
    usage: { prompt: 1000, cached: 400, completion: 50, reasoning: 20 },
  });
  const agentDir = mkdtempSync(join(tmpdir(), "rm-pi-agent-"));
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { double: { baseUrl: double.url, api: "openai-completions", apiKey: "DOUBLE_API_KEY", models: [{ id: "gpt-5" }] } } }));
  let runner: ChildProcess | null = null;
  try {
    await signIn(page);
    const name = `pi ${Date.now()}`;
    await page.goto("/profiles");
    const form = page.getByRole("form", { name: "New profile" });
    await form.getByLabel(/^Name/).fill(name);
    await form.getByLabel(/^Adapter/).selectOption("pi");
    await form.getByLabel(/^Model/).fill("double/gpt-5");
    await form.getByLabel(/^Environment allow-list/).fill("DOUBLE_API_KEY PI_CODING_AGENT_DIR");
    await form.getByRole("button", { name: "Create profile" }).click();
    await expect(form.locator(".field.invalid").filter({ hasText: "Adapter runs `pi`, which is not installed on this server: install it with `npm install -g @mariozechner/pi-coding-agent`, or connect a runner that has it" })).toBeVisible();
    await form.scrollIntoViewIfNeeded();
    await screenshots(page, "real-cli-profile-refused");

    // A runner token, and a runner on this machine whose PATH has pi (unsandboxed: it reaches the model API).
    await page.goto("/team/tokens");
    await page.getByLabel("Kind").selectOption("runner");
    await page.getByLabel("Name").fill("pi runner");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("new-token").textContent())!.trim();
    let output = "";
    runner = spawn(process.execPath, [
      "--import", "tsx", "runner/main.ts", "--url", baseURL!, "--name", "pi-box", "--sandbox", "off", "--pass-env", "DOUBLE_API_KEY,PI_CODING_AGENT_DIR",
      "--work-dir", mkdtempSync(join(tmpdir(), "rm-runner-")),
    ], {
      cwd: join(import.meta.dirname, ".."),
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: mkdtempSync(join(tmpdir(), "rm-runner-home-")), RINGMASTER_RUNNER_TOKEN: token, DOUBLE_API_KEY: "sk-test", PI_CODING_AGENT_DIR: agentDir } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    runner.stdout!.on("data", (c) => { output += c.toString(); });
    runner.stderr!.on("data", (c) => { output += c.toString(); });
    await expect.poll(() => output, { timeout: 30_000 }).toContain('registered as "pi-box"');

    await page.goto("/profiles");
    await form.getByLabel(/^Name/).fill(name);
    await form.getByLabel(/^Adapter/).selectOption("pi");
    await form.getByLabel(/^Model/).fill("double/gpt-5");
    await form.getByLabel(/^Environment allow-list/).fill("DOUBLE_API_KEY PI_CODING_AGENT_DIR");
    await form.getByRole("button", { name: "Create profile" }).click();
    await expect(form.getByTestId("profile-warning")).toHaveText("Adapter runs `pi`, which is not installed on this server: only the runner pi-box can run this profile");
    await expect(page.getByRole("form", { name: `Profile ${name}` })).toBeVisible();
    await expect(form.getByTestId("profile-warning")).toBeVisible();
    await form.scrollIntoViewIfNeeded();
    await screenshots(page, "real-cli-profile-warned");

    // A project whose executor is that profile, its runs on remote runners.
    await page.goto("/");
    await page.getByRole("link", { name: "New project" }).click();
    await page.getByLabel("Name").fill(`Real CLI ${Date.now()}`);
    const repo = makeRepo();
    await page.getByLabel("Repository path").fill(repo);
    await page.getByLabel("Agent profile").selectOption({ label: `${name} (pi)` });
    await page.getByRole("button", { name: "Create project" }).click();
    await expect(page.getByRole("heading", { name: /^Real CLI/ })).toBeVisible();
    const projectUrl = page.url();
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Run executors on remote runners (they pull work over HTTP)").check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("status").filter({ hasText: /saved/i })).toBeVisible();

    await page.goto(projectUrl);
    await page.getByRole("button", { name: "New prompt" }).click();
    await page.getByLabel("Title").fill("Write hello");
    await page.getByLabel("Prompt (Markdown)").fill("Write hello.txt saying hello from pi.");
    await page.getByRole("button", { name: "Add prompt" }).click();
    await page.locator("body").press("o");
    await expect(page.getByTestId("loop-mode")).toHaveText("loop running");

    await expect(page.getByTestId("running-agent").first()).toBeVisible({ timeout: 60_000 });
    await page.getByTestId("running-agent").first().getByRole("link").click();
    await expect(page.getByTestId("run-status")).toHaveText("merged", { timeout: 90_000 });
    // pi's JSON events as the run page's steps: its session (the model from its first call), the
    // tool call and its result, its words, and the result with the run's tokens.
    const log = page.getByTestId("run-log");
    await expect(log.getByTestId("run-session")).toHaveText(/^session started · gpt-5 · session [0-9a-f-]{36}$/);
    await expect(log.locator(".step.tool")).toHaveCount(1);
    await expect(log.locator(".step.tool summary")).toHaveText("⚙ bash");
    await expect(log.locator(".step.text")).toHaveText("Wrote hello.txt.");
    await expect(page.getByTestId("run-result")).toHaveText("finished: Wrote hello.txt. · 2000 in / 100 out tokens");
    await log.locator(".step.tool summary").click();
    await screenshots(page, "real-cli-run");
  } finally {
    runner?.kill();
    await double.stop();
  }
});
