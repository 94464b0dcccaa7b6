import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { PROXY_PROBE_JS } from "@/lib/sandbox/proxy-probe";
import { addPrompt } from "./helpers/fixtures";
import { createGithubProject, startGithubDouble } from "./helpers/github-fixtures";
import { tickAndRun } from "./helpers/run-once";

const double = await startGithubDouble();
afterAll(() => double.stop());

describe("blocked egress in the pull request", () => {
  it("lists the hosts the agent's sandbox refused in the body of the PR it opens", async () => {
    const { team, project, fullName } = await createGithubProject(double);
    const tryHost = (host: string) => `${process.execPath} -e '${PROXY_PROBE_JS}' 'CONNECT ${host}:443 HTTP/1.1' ' 200 '`;
    const agent = await getDb().agentProfile.create({
      data: { teamId: team.id, name: "curious", adapter: "shell", commandTemplate: `${tryHost("exfil.example.net")}; ${tryHost("exfil.example.net")}; ${tryHost("tracker.example.com")}; echo done > work.txt` },
    });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: agent.id, networkMode: "allow-list", egressPresets: ["npm"] } });
    await addPrompt(project.id, { number: 1, title: "Work", body: "do it" });
    const { run } = await tickAndRun(project.id);
    expect(run!.mergeStatus).toBe("pushed");
    const [opened] = double.calls("POST", `/repos/${fullName}/pulls`).map((c) => c.body as { body: string });
    expect(opened.body).toContain([
      "### Blocked network requests",
      "",
      "The agent's sandbox refused these hosts, which its project does not allow:",
      "",
      "- `exfil.example.net` (2×)",
      "- `tracker.example.com` (1×)",
    ].join("\n"));
  });
});
