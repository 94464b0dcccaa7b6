import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { createCampaign } from "@/lib/campaigns/create";
import { PROXY_PROBE_JS } from "@/lib/sandbox/proxy-probe";
import { createTeamWithProject } from "./helpers/fixtures";
import { logOf } from "./helpers/campaigns";
import { tickAndRun } from "./helpers/run-once";

// Seed 002's safety checklist: network access limited to package registries. A campaign's worker
// runs in the project's sandbox like any run; each host it was refused is named in its run's log.
describe("a campaign worker's network", () => {
  it("reaches only the allow-list; every blocked host appears in the run's log", async () => {
    const { team, user, project } = await createTeamWithProject({ cooldownMs: 0, maxParallel: 1 });
    const tryHost = (host: string) => `${process.execPath} -e '${PROXY_PROBE_JS}' 'CONNECT ${host}:443 HTTP/1.1' ' 200 '`;
    const agent = await getDb().agentProfile.create({
      data: { teamId: team.id, name: "curious", adapter: "shell", commandTemplate: `${tryHost("exfil.example.net")}; ${tryHost("exfil.example.net")}; ${tryHost("registry.npmjs.org")}; echo done > t1.txt` },
    });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: agent.id, networkMode: "allow-list", egressPresets: ["npm"] } });
    const actor = { kind: "user" as const, id: user.id, teamId: team.id, role: "owner" as const };
    const campaign = await createCampaign(actor as never, project, { goal: "Write t1", plan: { tasks: [{ id: "t1", description: "Write t1", files: ["t1.txt"] }] } });
    const { run } = await tickAndRun(project.id);
    expect(run).toMatchObject({ status: "succeeded", prompt: { campaignId: campaign.id, taskId: "t1" } });
    expect((run!.egress as { blocked: Record<string, number> }).blocked).toEqual({ "exfil.example.net": 2 });
    const log = await logOf(run!.id);
    expect(log).toContain("Ringmaster egress policy blocked exfil.example.net (2×): the project does not allow it");
    expect(log).not.toContain("blocked registry.npmjs.org");
  });
});
