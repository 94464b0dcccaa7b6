import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { POST as postProfile } from "@/app/api/agent-profiles/route";
import { PATCH as patchProfile } from "@/app/api/agent-profiles/[id]/route";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";
import { tickAndRun } from "./helpers/run-once";

// Ringmaster's own secrets, as the worker has them, plus credentials of the services it talks to.
Object.assign(process.env, {
  AUTH_SECRET: "a".repeat(64), ENCRYPTION_KEY: "5e".repeat(32), AUTH_GITHUB_SECRET: "oauth-app-secret",
  GITHUB_WEBHOOK_SECRET: "webhook-secret-123456", GITHUB_TOKEN: "ghp_server", GH_TOKEN: "ghp_server2", SLACK_BOT_TOKEN: "xoxb-server",
  DEMO_PASSWORD: "demo-password", PGPASSWORD: "pg", HARMLESS_SETTING: "visible",
});
const SECRETS = ["DATABASE_URL", "REDIS_URL", "AUTH_SECRET", "ENCRYPTION_KEY", "AUTH_GITHUB_SECRET", "GITHUB_WEBHOOK_SECRET", "GITHUB_TOKEN", "GH_TOKEN", "SLACK_BOT_TOKEN", "DEMO_PASSWORD", "PGPASSWORD"];

const profileBody = (envAllowList: string[]) => ({ name: `p-${Math.random().toString(36).slice(2, 8)}`, adapter: "claude", envAllowList });

describe("an agent profile's environment allow-list", () => {
  it.each(SECRETS)("refuses %s with a field error, on create and update, and stores nothing", async (name) => {
    const { team, profile } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const created = await postProfile(request("POST", "/api/agent-profiles", admin, profileBody(["ANTHROPIC_API_KEY", name])), { params: Promise.resolve({}) });
    expect(created.status).toBe(400);
    expect((await created.json()).error).toMatchObject({ code: "invalid", field: "envAllowList.1", message: expect.stringContaining("Ringmaster's own") });
    const updated = await patchProfile(request("PATCH", `/api/agent-profiles/${profile.id}`, admin, { name: "demo", adapter: "demo", envAllowList: [name] }), params(profile.id));
    expect(updated.status).toBe(400);
    expect((await updated.json()).error).toMatchObject({ field: "envAllowList.0" });
    expect((await getDb().agentProfile.findMany({ where: { teamId: team.id } })).map((p) => p.envAllowList)).toEqual([[]]);
  });

  it("never passes Ringmaster's secrets to an agent even when a profile row names them (defence in depth)", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const profile = await getDb().agentProfile.create({
      data: { teamId: team.id, name: "legacy", adapter: "shell", commandTemplate: "env > .agent-env.txt", envAllowList: [...SECRETS, "HARMLESS_SETTING"] },
    });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id } });
    await addPrompt(project.id, { number: 1, title: "Show env", body: "" });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    const names = execFileSync("git", ["-C", project.repoPath!, "show", `${run!.commitSha}:.agent-env.txt`], { encoding: "utf8" }).split("\n").map((l) => l.split("=")[0]);
    expect(names).toContain("HARMLESS_SETTING");
    for (const secret of SECRETS) expect(names, secret).not.toContain(secret);
  });
});
