// A sandboxed run whose profile passes Factory Droid's provider file says in its log that the file
// was written into the run's private HOME, before the CLI starts, and the CLI reads it there.
// (test/sandbox-home-config.test.ts runs the real Cline and droid against a model double; this one
// stands a two-line script in for `droid`, so it needs neither the CLI's download nor a model API.)
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

// Read once per file (lib/env.ts caches them): the stand-in's folder on PATH and visible in the sandbox.
const bin = mkdtempSync(join(tmpdir(), "home-config-log-"));
writeFileSync(join(bin, "droid"), '#!/bin/sh\ncat >/dev/null\necho "settings: $(cat "$HOME/.factory/settings.json" | tr -d " \\n")"\n');
chmodSync(join(bin, "droid"), 0o755);
// The sandbox runs the agent as another user: the folder (made 0700) must let it in.
chmodSync(bin, 0o755);
Object.assign(process.env, { PATH: `${bin}:${process.env.PATH}`, SANDBOX_READ_ONLY_PATHS: bin, DROID_SETTINGS_CONTENT: '{"customModels":[]}' });

const runLog = async (runId: string) => (await getDb().runLog.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");

describe("a provider file variable in a sandboxed run", () => {
  it("is written into the run's HOME, the log says so, and the CLI reads it there", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const droid = await getDb().agentProfile.create({ data: { teamId: team.id, name: "droid", adapter: "droid", envAllowList: ["DROID_SETTINGS_CONTENT"] } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: droid.id } });
    await addPrompt(project.id, { number: 1, title: "Say hello", body: "Write hello.txt." });

    const { run } = await tickAndRun(project.id);
    const log = await runLog(run!.id);
    expect(log).toContain("[ringmaster] wrote ~/.factory/settings.json in the run's HOME from the profile's variable");
    expect(log).toContain('settings: {"customModels":[]}');
    expect(log.indexOf("[ringmaster] wrote")).toBeLessThan(log.indexOf("settings: "));
  });
});
