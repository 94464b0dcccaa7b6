// Agent profiles: a command template may not quote its placeholders, and a profile no live
// project uses can be deleted (one in use answers 409 naming its projects).
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { POST as postProfile } from "@/app/api/agent-profiles/route";
import { DELETE as deleteProfile } from "@/app/api/agent-profiles/[id]/route";
import { DELETE as archive } from "@/app/api/projects/[id]/route";
import { GET as unknownGet, POST as unknownPost } from "@/app/api/[...path]/route";
import { PATCH as patchProfile } from "@/app/api/agent-profiles/[id]/route";
import { quotedPlaceholder } from "@/lib/agents/shell";
import { FIXTURES_DIR } from "@/lib/agents/testing";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";
import { registeredAgent, runnerToken } from "./helpers/runners";

const noParams = { params: Promise.resolve({}) };

// The agents' PATH of this "server" has stand-ins for claude, codex, gemini and aider (a profile
// of a CLI missing there is refused); qwen is on no PATH here.
const FIXTURE_BIN = `${FIXTURES_DIR}/bin`;
process.env.PATH = `${FIXTURE_BIN}:/usr/bin:/bin`;

describe("agent profiles", () => {
  it.each([
    [`my-agent "{prompt}"`, "{prompt}"], [`my-agent '{prompt}'`, "{prompt}"], [`my-agent --task="{prompt}" {model}`, "{prompt}"],
    [`run --model '{model}' {prompt}`, "{model}"], [`my-agent {prompt}`, null], [`echo "it's" {prompt}`, null], [`echo \\"{prompt}`, null],
  ])("%s has a quoted placeholder: %s", (template, found) => expect(quotedPlaceholder(template)).toBe(found));

  it("refuses a quoted {prompt} with an explanation, and creates nothing", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const before = await getDb().agentProfile.count({ where: { teamId: team.id } });
    const res = await postProfile(request("POST", "/api/agent-profiles", admin, { name: "quoted", adapter: "shell", commandTemplate: `my-agent --task "{prompt}"` }), noParams);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      field: "commandTemplate",
      message: "Command template must not put {prompt} in quotes: Ringmaster quotes the value itself, and inside quotes the shell could run commands written in the prompt. Write it bare, e.g. my-agent --task {prompt}",
    });
    expect(await getDb().agentProfile.count({ where: { teamId: team.id } })).toBe(before);
  });

  it("keeps a profile's permission mode; one of another CLI, or set again in extra arguments, is refused naming the field", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const post = (body: object) => postProfile(request("POST", "/api/agent-profiles", admin, body), noParams);

    const bad = await post({ name: "g1", adapter: "gemini", permissionMode: "bypassPermissions", extraArgs: ["--yolo"] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toEqual({
      permissionMode: "Permission mode must be one of yolo, auto_edit, default, plan for the gemini adapter",
      "extraArgs.0": "Extra arguments, line 1 must not set the permission mode (--yolo): choose it in Permission mode, the CLI refuses it twice",
    });
    expect(await getDb().agentProfile.count({ where: { teamId: team.id, name: "g1" } })).toBe(0);

    const ok = await post({ name: "g2", adapter: "gemini", permissionMode: "auto_edit" });
    expect(ok.status).toBe(201);
    expect(await getDb().agentProfile.findFirstOrThrow({ where: { teamId: team.id, name: "g2" } })).toMatchObject({ permissionMode: "auto_edit" });
  });

  it("refuses a profile whose CLI is on neither this server nor an online runner that reported it, naming the field; on a runner only it is saved with a warning naming the runner", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const post = (body: object) => postProfile(request("POST", "/api/agent-profiles", admin, body), noParams);

    const refused = await post({ name: "q1", adapter: "qwen" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({
      field: "adapter",
      message: "Adapter runs `qwen`, which is not installed on this server: install it with `npm install -g @qwen-code/qwen-code`, or connect a runner that has it",
    });
    expect(await getDb().agentProfile.count({ where: { teamId: team.id, name: "q1" } })).toBe(0);

    // Found on the PATH: saved, nothing to warn about.
    const found = await post({ name: "g3", adapter: "gemini" });
    expect(found.status).toBe(201);
    const saved = await found.json();
    expect(saved.warnings).toEqual({});
    // Changing it to the missing CLI is refused the same way, and changes nothing.
    const patch = (body: object) => patchProfile(request("PATCH", `/api/agent-profiles/${saved.profile.id}`, admin, body), params(saved.profile.id));
    const changed = await patch({ name: "g3", adapter: "qwen" });
    expect(changed.status).toBe(400);
    expect((await changed.json()).error.field).toBe("adapter");
    expect(await getDb().agentProfile.findUniqueOrThrow({ where: { id: saved.profile.id } })).toMatchObject({ adapter: "gemini" });

    // A runner of another team that has it, one of this team gone silent that has it, or an online
    // one without it: still refused.
    const qwen = { adapter: "qwen", path: "/opt/bin/qwen", version: "0.24.4" };
    const other = await createTeamWithProject({ loopEnabled: false });
    await registeredAgent(await runnerToken(other.team.id), { name: "elsewhere", clis: [qwen] });
    const silent = await registeredAgent(await runnerToken(team.id), { name: "silent", clis: [qwen] });
    await getDb().agent.update({ where: { id: silent }, data: { lastSeenAt: new Date(Date.now() - 86_400_000) } });
    await registeredAgent(await runnerToken(team.id), { name: "cpu-box", clis: [{ adapter: "codex", path: "/opt/bin/codex", version: "0.169.0" }] });
    const nowhere = await post({ name: "q1", adapter: "qwen" });
    expect(nowhere.status).toBe(400);
    expect((await nowhere.json()).error).toMatchObject({
      field: "adapter",
      message: "Adapter runs `qwen`, which is not installed on this server nor on any online runner (1 runner is online without it): install it with `npm install -g @qwen-code/qwen-code`, or connect a runner that has it",
    });

    // An online runner of the team that reported it: saved, with a warning naming it.
    await registeredAgent(await runnerToken(team.id), { name: "gpu-box", clis: [qwen] });
    const warned = await post({ name: "q1", adapter: "qwen" });
    expect(warned.status).toBe(201);
    expect((await warned.json()).warnings).toEqual({ adapter: "runs `qwen`, which is not installed on this server: only the runner gpu-box can run this profile" });
    const patched = await patch({ name: "g3", adapter: "qwen" });
    expect(patched.status).toBe(200);
    expect((await patched.json()).warnings.adapter).toBe("runs `qwen`, which is not installed on this server: only the runner gpu-box can run this profile");
  });

  it("deletes a profile only when no live project uses it; another team's is 404", async () => {
    const { team, project, profile } = await createTeamWithProject({ loopEnabled: false });
    const other = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const del = (id: string, token = admin) => deleteProfile(request("DELETE", `/api/agent-profiles/${id}`, token), params(id));

    const used = await del(profile.id);
    expect(used.status).toBe(409);
    expect((await used.json()).error).toEqual({ code: "in_use", message: `demo is used by ${project.name}: choose another profile in their settings first` });
    expect((await del(other.profile.id)).status).toBe(404);
    expect((await del(profile.id, await apiToken(team.id, "operator"))).status).toBe(403);

    expect((await archive(request("DELETE", `/api/projects/${project.id}`, admin), params(project.id))).status).toBe(204);
    expect((await del(profile.id)).status).toBe(204);
    expect(await getDb().agentProfile.findUnique({ where: { id: profile.id } })).toBeNull();
    expect(await getDb().auditEvent.count({ where: { teamId: team.id, action: "profile.deleted" } })).toBe(1);
    expect(await getDb().agentProfile.findUnique({ where: { id: other.profile.id } })).not.toBeNull();
  });

  it("an /api path no route serves answers the API's JSON 404", async () => {
    for (const res of [await unknownGet(), await unknownPost()]) {
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ error: { code: "not_found", message: "no such API endpoint" } });
    }
  });
});
