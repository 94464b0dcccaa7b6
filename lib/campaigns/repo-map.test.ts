import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { buildRepoMap, repoMapRatio } from "@/lib/campaigns/repo-map";

const ROOT = resolve(import.meta.dirname, "../..");

describe("the architect's repo map", () => {
  it("is at most 10 % of this repository's bytes, and cached per commit", async () => {
    const map = await buildRepoMap(ROOT);
    const ratio = repoMapRatio(map);
    console.log(`repo map of this repository: ${Buffer.byteLength(map.text)} of ${map.sourceBytes} bytes (${(ratio * 100).toFixed(1)} %)`);
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThanOrEqual(0.1);
    expect(map.text).toContain("\nlib/runs/claim.ts\n");
    expect(map.text).toContain("\n  export function chooseModel(profile: Profile, routing: unknown, domain: string | null, attempt: number): string | null\n");
    expect(map.text).not.toContain("routed = domain");
    expect(await buildRepoMap(ROOT)).toBe(map);
  });

  it("lists every tracked file with its signatures and no bodies, and a new commit maps anew", async () => {
    const repo = mkdtempSync(join(tmpdir(), "repo-map-"));
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo });
    git("init", "-q", "-b", "main");
    writeFileSync(join(repo, "a.py"), "def hello(name):\n    return 'SECRET BODY'\n");
    writeFileSync(join(repo, "notes.txt"), "plain text\n");
    git("add", ".");
    git("commit", "-qm", "one");
    const first = await buildRepoMap(repo);
    expect(first.text).toBe("a.py\n  def hello(name)\nnotes.txt\n");
    writeFileSync(join(repo, "b.go"), "package b\nfunc World() int { return 1 }\n");
    git("add", ".");
    git("commit", "-qm", "two");
    const second = await buildRepoMap(repo);
    expect(second.commit).not.toBe(first.commit);
    expect(second.text).toBe("a.py\n  def hello(name)\nb.go\n  func World() int\nnotes.txt\n");
  });
});
