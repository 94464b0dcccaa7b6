// An unsandboxed run has no private HOME: the provider file a profile's variable holds for Cline
// or Factory Droid is never written into the worker's own HOME; the run fails, naming it.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

// A worker without bubblewrap, whose operator allows unsandboxed opt-ins.
Object.assign(process.env, { SANDBOX_BWRAP: "/nonexistent/bwrap", SANDBOX_UNSANDBOXED_OPT_IN: "on", DROID_SETTINGS_CONTENT: '{"customModels":[]}' });

describe("a provider file variable in an unsandboxed run", () => {
  it("fails the run before the CLI starts, and writes nothing into the worker's HOME", async () => {
    const existed = existsSync(join(homedir(), ".factory", "settings.json"));
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const droid = await getDb().agentProfile.create({ data: { teamId: team.id, name: "droid", adapter: "droid", envAllowList: ["DROID_SETTINGS_CONTENT"] } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: droid.id, unsandboxed: true } });
    await addPrompt(project.id, { number: 1, title: "Say hello", body: "Write hello.txt." });

    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("failed");
    expect(run!.error).toBe("DROID_SETTINGS_CONTENT could not be written to ~/.factory/settings.json: an unsandboxed run has no private HOME");
    expect(existsSync(join(homedir(), ".factory", "settings.json"))).toBe(existed);
  });
});
