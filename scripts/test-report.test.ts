// The reports real Vitest and Playwright runs write, read into counts and the lines `npm test` ends
// with: each failure named (file, test, the first line of its error) above the last line.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { playwrightCounts, summaryLines, vitestCounts } from "./test-report";

const root = resolve(import.meta.dirname, "..");
const bin = (name: string) => join(root, "node_modules", ".bin", name);
let dir: string;

beforeAll(() => {
  // Inside the repository so the runners resolve from its node_modules; no project's include reaches it.
  mkdirSync(join(root, ".tmp"), { recursive: true });
  dir = mkdtempSync(join(root, ".tmp", "test-report-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A folder of `files` (name → lines) under the run's folder; answers its path.
function folder(name: string, files: Record<string, string[]>): string {
  const at = join(dir, name);
  mkdirSync(at);
  for (const [file, lines] of Object.entries(files)) writeFileSync(join(at, file), `${lines.join("\n")}\n`);
  return at;
}

// Real Vitest on `files`, its JSON report written; answers the report's path, the folder and Vitest's exit code.
function runVitest(name: string, files: Record<string, string[]>) {
  const tests = folder(name, { ...files, "vitest.config.mjs": ["export default {};"] });
  const out = join(dir, `${name}.json`);
  const exit = spawnSync(bin("vitest"), ["run", "--root", tests, "--reporter=json", `--outputFile.json=${out}`], { cwd: tests, encoding: "utf8" }).status;
  return { out, tests, exit };
}

// Real Playwright on `files`, its JSON report written; answers the report's path.
function runPlaywright(name: string, files: Record<string, string[]>): string {
  const specs = folder(name, { ...files, "playwright.config.ts": ['export default { testDir: ".", retries: 0, workers: 1 };'] });
  const out = join(dir, `${name}.json`);
  spawnSync(bin("playwright"), ["test", "--config", join(specs, "playwright.config.ts"), "--reporter=json"], {
    cwd: specs, encoding: "utf8", env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  });
  return out;
}

describe("a real Vitest report", () => {
  test("counts passed, failed and skipped tests, a file that failed to load and one whose hook threw, naming each failure", () => {
    const { out, tests } = runVitest("vitest", {
      "mixed.test.ts": [
        'import { describe, expect, test } from "vitest";',
        'describe("group", () => {',
        '  test("passes", () => expect(1).toBe(1));',
        '  test("fails", () => expect("seen").toBe("wanted"));',
        '  test.skip("skipped", () => {});',
        "});",
      ],
      "broken.test.ts": ['throw new Error("cannot load this file");'],
      "hook.test.ts": [
        'import { afterAll, expect, test } from "vitest";',
        'afterAll(() => { throw new Error("its cleanup broke"); });',
        'test("passes too", () => expect(1).toBe(1));',
      ],
    });

    const counts = vitestCounts(out, root);
    expect({ passed: counts.passed, failed: counts.failed, skipped: counts.skipped }).toEqual({ passed: 2, failed: 3, skipped: 1 });
    const where = (file: string) => join(tests, file).slice(root.length + 1);
    expect(counts.failures).toHaveLength(3);
    expect(counts.failures).toContainEqual(expect.stringMatching(new RegExp(`^${where("hook.test.ts")}: .*its cleanup broke`)));
    expect(counts.failures).toContainEqual(expect.stringMatching(new RegExp(`^${where("mixed.test.ts")} › group fails: .*expected 'seen' to be 'wanted'`)));
    expect(counts.failures).toContainEqual(expect.stringMatching(new RegExp(`^${where("broken.test.ts")}: .*cannot load this file`)));
  }, 60_000);

  test("a run whose tests all passed but which Vitest failed (an error escaped a test) counts one failure, named", () => {
    const { out, exit } = runVitest("vitest-escaped", {
      "stray.test.ts": [
        'import { expect, test } from "vitest";',
        'test("passes", async () => {',
        '  setTimeout(() => Promise.reject(new Error("a stray rejection")), 0);',
        "  await new Promise((resume) => setTimeout(resume, 50));",
        "  expect(1).toBe(1);",
        "});",
      ],
    });
    expect(exit).toBe(1);
    expect(vitestCounts(out, root, exit!)).toEqual({ passed: 1, failed: 1, skipped: 0, failures: [expect.stringMatching(/^vitest exited with code 1 though no test failed/)] });
    // A run Vitest passed is counted from its report alone.
    expect(vitestCounts(out, root, 0)).toEqual({ passed: 1, failed: 0, skipped: 0, failures: [] });
  }, 60_000);

  test("a missing report is one failure, named", () => {
    expect(vitestCounts(join(dir, "none.json"), root)).toEqual({ passed: 0, failed: 1, skipped: 0, failures: ["vitest wrote no report"] });
  });
});

describe("a real Playwright report", () => {
  test("counts passed, failed and skipped specs in nested groups, naming each failure", () => {
    const out = runPlaywright("playwright", {
      "mixed.spec.ts": [
        'import { expect, test } from "@playwright/test";',
        'test("passes", () => expect(1).toBe(1));',
        'test.describe("group", () => {',
        '  test("fails", () => expect("seen").toBe("wanted"));',
        '  test.skip("skipped", () => {});',
        "});",
      ],
    });

    const counts = playwrightCounts(out);
    expect({ passed: counts.passed, failed: counts.failed, skipped: counts.skipped }).toEqual({ passed: 1, failed: 1, skipped: 1 });
    expect(counts.failures).toEqual([expect.stringMatching(/^mixed\.spec\.ts › fails: .*toBe/)]);
  }, 60_000);

  test("a spec file that cannot load is a failure, named, though no test ran", () => {
    const out = runPlaywright("playwright-broken", {
      "broken.spec.ts": ['throw new Error("this spec cannot load");'],
      "fine.spec.ts": ['import { test } from "@playwright/test";', 'test("would pass", () => {});'],
    });
    expect(playwrightCounts(out)).toEqual({ passed: 0, failed: 1, skipped: 0, failures: [expect.stringMatching(/^playwright: .*this spec cannot load/)] });
  }, 60_000);

  test("a missing report is one failure, named", () => {
    expect(playwrightCounts(join(dir, "none.json")).failures).toEqual(["playwright wrote no report"]);
  });
});

describe("the summary's lines", () => {
  test("name each failure without colour codes, then end with the counts", () => {
    expect(summaryLines({ passed: 3, failed: 2, skipped: 1, failures: ["a.test.ts › x: \x1b[31mboom\x1b[39m", "lint"] })).toEqual([
      "[test] failed: a.test.ts › x: boom",
      "[test] failed: lint",
      "3 passed, 2 failed, 1 skipped",
    ]);
  });

  test("a green run is the counts alone", () => {
    expect(summaryLines({ passed: 3, failed: 0, skipped: 0, failures: [] })).toEqual(["3 passed, 0 failed, 0 skipped"]);
  });
});
