// `npm run mutation [group…] [-- --concurrency N] [--lines FROM-TO,…]`: StrykerJS on one module
// group at a time, then one line per module — killed / reached, reached by no test, score — and
// where each surviving mutant sits. Exits 1 when a module scores under the bar. `--lines` mutates
// only those lines of the group's first module (a check of a change since the last whole run:
// its figures are of those lines alone, never the module's).
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { Stryker } from "@stryker-mutator/core";
import type { LogLevel, MutantResult, PartialStrykerOptions } from "@stryker-mutator/api/core";
import { EQUIVALENTS, GROUPS, type Equivalent, type MutationGroup } from "./mutation/groups";

const root = resolve(import.meta.dirname, "..");
const BAR = 85;
const DETECTED = new Set(["Killed", "Timeout"]);

function sourceText(file: string, m: MutantResult): string {
  // Report locations count lines and columns from 1.
  const lines = ["", ...readFileSync(join(root, file), "utf8").split("\n")];
  const { start, end } = m.location;
  if (start.line === end.line) return lines[start.line].slice(start.column - 1, end.column - 1);
  return [lines[start.line].slice(start.column - 1), ...lines.slice(start.line + 1, end.line), lines[end.line].slice(0, end.column - 1)].join("\n");
}

function equivalentOf(file: string, m: MutantResult): Equivalent | undefined {
  return EQUIVALENTS.find((e) => e.file === file && e.replacement === m.replacement && e.original === sourceText(file, m));
}

/** "12,30×3": the lines mutants sit on, with how many share a line. */
function lines(mutants: MutantResult[]): string {
  const count = new Map<number, number>();
  for (const m of mutants) count.set(m.location.start.line, (count.get(m.location.start.line) ?? 0) + 1);
  return [...count].sort((a, b) => a[0] - b[0]).map(([line, n]) => (n > 1 ? `${line}×${n}` : `${line}`)).join(",");
}

function summarize(group: MutationGroup, results: MutantResult[]): boolean {
  let ok = true;
  for (const module of group.modules) {
    const mine = results.filter((m) => relative(root, m.fileName) === module);
    const excluded = mine.filter((m) => m.status === "Survived" && equivalentOf(module, m));
    const killed = mine.filter((m) => DETECTED.has(m.status)).length;
    const survivors = mine.filter((m) => m.status === "Survived" && !excluded.includes(m));
    const uncovered = mine.filter((m) => m.status === "NoCoverage");
    const reached = killed + survivors.length;
    const score = reached ? (100 * killed) / reached : 100;
    if (score < BAR || uncovered.length) ok = false;
    const where = lines(survivors);
    const none = lines(uncovered);
    console.log(
      `${module.padEnd(32)} ${String(killed).padStart(4)} / ${String(reached).padEnd(4)} killed/reached  ${String(uncovered.length).padStart(3)} no-coverage  ${score.toFixed(1).padStart(5)} %`
      + `${excluded.length ? `  (${excluded.length} equivalent excluded)` : ""}${where ? `\n    survived: ${module}:${where}` : ""}${none ? `\n    no test reaches: ${module}:${none}` : ""}`,
    );
  }
  return ok;
}

async function runGroup(name: string, group: MutationGroup, concurrency: number, ranges?: string): Promise<MutantResult[]> {
  // Read by vitest.mutation.config.ts in each of Stryker's test-runner processes.
  process.env.MUTATION_TEST_FILES = group.tests.join(",");
  const options: PartialStrykerOptions = {
    testRunner: "vitest",
    plugins: ["@stryker-mutator/vitest-runner"],
    vitest: { configFile: "vitest.mutation.config.ts", related: false },
    coverageAnalysis: "perTest",
    concurrency,
    mutate: ranges ? ranges.split(",").map((range) => `${group.modules[0]}:${range}`) : group.modules,
    // No `testFiles`: with it Stryker 9.6 runs a mutant made when a module loads (a pattern, a
    // table) with the mutant switched on only after the module loaded, so no test could kill it.
    // vitest.mutation.config.ts already limits the run to the group's tests.
    reporters: ["progress-append-only", "json", "html"],
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    tempDirName: ".stryker-tmp",
    ignorePatterns: ["e2e", "bench", "docs", "reports", "test-results", "playwright-report", ".next*", ".data"],
    timeoutMS: 10_000,
    logLevel: "warn" as LogLevel,
    fileLogLevel: "off" as LogLevel,
  };
  return new Stryker(options).runMutationTest();
}

async function main() {
  const args = process.argv.slice(2);
  const ci = args.indexOf("--concurrency");
  const concurrency = ci >= 0 ? Number(args.splice(ci, 2)[1]) : 1;
  const li = args.indexOf("--lines");
  const ranges = li >= 0 ? args.splice(li, 2)[1] : undefined;
  if (ranges !== undefined && !/^\d+-\d+(,\d+-\d+)*$/.test(ranges)) throw new Error(`--lines takes FROM-TO ranges of line numbers, comma-separated, not ${ranges}`);
  const names = args.length ? args : Object.keys(GROUPS);
  const unknown = names.filter((n) => !GROUPS[n]);
  if (unknown.length) throw new Error(`unknown group ${unknown.join(", ")}; groups: ${Object.keys(GROUPS).join(", ")}`);
  let ok = true;
  for (const name of names) {
    const started = Date.now();
    const results = await runGroup(name, GROUPS[name], concurrency, ranges);
    const only = ranges ? `; only ${GROUPS[name].modules[0]} lines ${ranges}` : "";
    console.log(`\n[mutation] ${name} (${Math.round((Date.now() - started) / 1000)} s; bar ${BAR} % of reached mutants, none unreached${only})`);
    // With --lines only the first module was mutated: the others would read 0 / 0.
    ok = summarize(ranges ? { ...GROUPS[name], modules: GROUPS[name].modules.slice(0, 1) } : GROUPS[name], results) && ok;
  }
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(`[mutation] ${(err as Error).message}`);
  process.exit(2);
});
