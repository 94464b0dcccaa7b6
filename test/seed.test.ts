import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";

const root = join(import.meta.dirname, "..");
const seed = (env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["--import", "tsx", "prisma/seed.ts"], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });

describe("the first-start seed", () => {
  it("with SEED_DEMO=off leaves the install empty so the first visitor signs up", async () => {
    const r = seed({ SEED_DEMO: "off" });
    expect(r.status).toBe(0);
    expect(await getDb().user.count()).toBe(0);
  });

  it("creates the demo team, a printed login and a runnable demo project once", async () => {
    const first = seed();
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/email: {4}demo@ringmaster\.local\n {4}password: \S{8,}/);
    const project = await getDb().project.findFirstOrThrow({ include: { settings: true, loopState: true, prompts: true } });
    expect(project.loopState!.mode).toBe("running");
    expect(project.settings!.executorProfileId).not.toBeNull();
    expect(project.prompts.map((p) => p.number).sort()).toEqual([1, 2, 3, 4]);
    const again = seed();
    expect(again.status).toBe(0);
    expect(again.stdout).not.toContain("password");
    expect(await getDb().team.count()).toBe(1);
  });
});
