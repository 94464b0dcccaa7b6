// The suite's reports read into counts, and the lines `npm test` ends with: what failed, each named
// with the first line of its error, then `N passed, N failed, N skipped` last. A CI log kept only in
// part (its head and tail) then still says which test failed.
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

export interface Counts { passed: number; failed: number; skipped: number; failures: string[] }

interface VitestSuite { name: string; status: string; message?: string; assertionResults: { status: string; fullName: string; failureMessages?: string[] }[] }

// The first line of a failure's message, short: the summary names what failed, the log above says why.
const firstLine = (text: string | undefined) => (text ?? "").split("\n").find((l) => l.trim())?.trim().slice(0, 200) ?? "";

/**
 * `exitCode`: Vitest's own. It fails a run whose tests all passed when an error escaped them (an
 * unhandled rejection after a test), which its report does not show: that counts as one failure.
 */
export function vitestCounts(file: string, root: string, exitCode = 0): Counts {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, failures: ["vitest wrote no report"] };
  const r = JSON.parse(readFileSync(file, "utf8"));
  const suites: VitestSuite[] = r.testResults ?? [];
  const failures: string[] = [];
  let failedSuites = 0;
  for (const s of suites) {
    const where = relative(root, s.name);
    // A file that failed with no failed test in it (it could not load, or a hook such as afterAll
    // threw) counts once: Vitest's own count of failed tests leaves it out.
    if (s.status === "failed" && !s.assertionResults.some((t) => t.status === "failed")) {
      failedSuites++;
      failures.push(`${where}: ${firstLine(s.message)}`);
    }
    for (const t of s.assertionResults) {
      if (t.status === "failed") failures.push(`${where} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
  }
  let failed = r.numFailedTests + failedSuites;
  if (exitCode !== 0 && failed === 0) {
    failed = 1;
    failures.push(`vitest exited with code ${exitCode} though no test failed: an error escaped the tests (its "Unhandled Errors" above)`);
  }
  return { passed: r.numPassedTests, failed, skipped: r.numPendingTests + (r.numTodoTests ?? 0), failures };
}

interface PlaywrightSuite { file: string; specs?: { title: string; tests: { status: string; results: { error?: { message?: string } }[] }[] }[]; suites?: PlaywrightSuite[] }

export function playwrightCounts(file: string): Counts {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, failures: ["playwright wrote no report"] };
  const report = JSON.parse(readFileSync(file, "utf8"));
  const s = report.stats;
  const failures: string[] = [];
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        if (t.status === "unexpected") failures.push(`${suite.file} › ${spec.title}: ${firstLine(t.results.at(-1)?.error?.message)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  // Errors outside any test (a spec file that cannot load, the global set-up) are the report's own,
  // not its stats': such a run reads 0 unexpected with every spec unrun.
  const errors: { message?: string }[] = report.errors ?? [];
  for (const e of errors) failures.push(`playwright: ${firstLine(e.message)}`);
  return { passed: s.expected + (s.flaky ?? 0), failed: s.unexpected + errors.length, skipped: s.skipped, failures };
}

const ansi = /\x1b\[[0-9;]*m/g;

export function summaryLines(total: Counts): string[] {
  return [
    ...total.failures.map((f) => `[test] failed: ${f.replace(ansi, "")}`),
    `${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`,
  ];
}
