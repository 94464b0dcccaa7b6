import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { PATCH as patchSettings } from "@/app/api/projects/[id]/settings/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

describe("agent network settings over HTTP", () => {
  it("new projects default to the allow-list; bad rules answer 400 naming the line and change nothing; the unsandboxed opt-in is audited", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const patch = (body: unknown) => patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, admin, body), params(project.id));
    const settings = () => getDb().projectSettings.findUniqueOrThrow({ where: { projectId: project.id } });
    expect(await settings()).toMatchObject({ networkMode: "allow-list", egressPresets: [], egressRules: [], unsandboxed: false });

    const cases: Array<[unknown, string, string]> = [
      [{ networkMode: "open" }, "networkMode", "Network mode must be none, allow-list or full"],
      [{ egressPresets: ["npm", "pastebin"] }, "egressPresets.1", "Network presets, item 2 must be one of anthropic, openai, google, npm, pypi, crates, go, debian, github"],
      [{ egressRules: ["*.example.com", "exa_mple.com"] }, "egressRules.1", "Allowed hosts, line 2 is not a host name (letters, digits and -, at least one dot; a leading *. allows every subdomain)"],
      [{ egressRules: ["get example.com"] }, "egressRules.0", "Allowed hosts, line 1 methods are upper-case HTTP verbs separated by commas, e.g. GET,HEAD"],
      [{ unsandboxed: "yes" }, "unsandboxed", "Unsandboxed must be yes or no (true or false)"],
    ];
    for (const [body, field, message] of cases) {
      const res = await patch(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toEqual({ code: "invalid", field, message, fields: { [field]: message } });
    }
    expect(await settings()).toMatchObject({ networkMode: "allow-list", egressPresets: [], egressRules: [], unsandboxed: false });

    const ok = await patch({ networkMode: "allow-list", egressPresets: ["npm", "github", "npm"], egressRules: ["  *.Example.com ", "GET,HEAD   mirror.example.org"], unsandboxed: true });
    expect(ok.status).toBe(200);
    expect(await settings()).toMatchObject({ egressPresets: ["npm", "github"], egressRules: ["*.Example.com", "GET,HEAD mirror.example.org"], unsandboxed: true });
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { teamId: team.id, action: "settings.updated" }, orderBy: { id: "desc" } });
    expect(audit.before).toMatchObject({ unsandboxed: false, egressRules: [] });
    expect(audit.after).toMatchObject({ unsandboxed: true, egressRules: ["*.Example.com", "GET,HEAD mirror.example.org"] });
  });
});
