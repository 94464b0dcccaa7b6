import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { writeLedgerLines } from "@/lib/budgets/ledger";
import { GET as usage } from "@/app/api/usage/route";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { apiToken, request } from "./helpers/api";

const noParams = { params: Promise.resolve({}) };
const today = new Date().toISOString().slice(0, 10);

async function spentProject(name: string, lines: Array<{ key: string; costUsd: number; inputTokens: number; cachedTokens: number; outputTokens: number }>) {
  const fixture = await createTeamWithProject();
  await getDb().project.update({ where: { id: fixture.project.id }, data: { name } });
  const prompt = await addPrompt(fixture.project.id, { number: 1, title: "Costly", body: "print hi\n" });
  await getDb().prompt.update({ where: { id: prompt.id }, data: { createdById: fixture.user.id } });
  await runTick(fixture.project.id);
  const run = await getDb().run.findFirstOrThrow({ where: { projectId: fixture.project.id } });
  await writeLedgerLines(
    { runId: run.id, teamId: fixture.team.id, projectId: fixture.project.id, agentProfileId: fixture.profile.id, queuedById: fixture.user.id },
    lines.map((l) => ({ ...l, cacheWriteTokens: 0, model: "claude-sonnet-4-5" })),
  );
  return { ...fixture, run };
}

describe("the usage API", () => {
  it("splits the team's ledger by day, project, profile, model and person, lists the dearest runs, and exports the same as CSV", async () => {
    const { team, run, user } = await spentProject("=HYPERLINK(\"http://evil\")", [
      { key: "msg_1", costUsd: 0.5, inputTokens: 1000, cachedTokens: 200, outputTokens: 50 },
      { key: "msg_2", costUsd: 0.25, inputTokens: 500, cachedTokens: 0, outputTokens: 25 },
    ]);
    await spentProject("Other team's", [{ key: "msg_1", costUsd: 9, inputTokens: 1, cachedTokens: 0, outputTokens: 1 }]);
    const token = await apiToken(team.id, "viewer");
    const res = await usage(request("GET", `/api/usage?from=${today}&to=${today}`, token), noParams);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.rows).toEqual([{
      day: today, projectId: run.projectId, project: "=HYPERLINK(\"http://evil\")", profile: "demo", model: "claude-sonnet-4-5", person: user.email,
      inputTokens: 1500, cachedTokens: 200, outputTokens: 75, costUsd: 0.75,
    }]);
    expect(body.topRuns).toEqual([{ runId: run.id, projectId: run.projectId, project: "=HYPERLINK(\"http://evil\")", status: "queued", title: "P1 Costly", costUsd: 0.75 }]);

    const csv = await (await usage(request("GET", `/api/usage?from=${today}&to=${today}&format=csv`, token), noParams)).text();
    expect(csv).toBe(
      "day,project,profile,model,person,inputTokens,cachedTokens,outputTokens,costUsd\n" +
      `${today},"'=HYPERLINK(""http://evil"")",demo,claude-sonnet-4-5,${user.email},1500,200,75,0.750000\n`,
    );
  });

  it.each([
    ["from=2026-11-30&to=2026-11-01", "to"],
    ["from=2026-13-01&to=2026-12-01", "from"],
    ["from=2024-01-01&to=2026-01-01", "to"],
    ["from=yesterday&to=2026-01-01", "from"],
  ])("refuses the period %s naming %s", async (query, field) => {
    const { team } = await createTeamWithProject();
    const res = await usage(request("GET", `/api/usage?${query}`, await apiToken(team.id, "viewer")), noParams);
    expect(res.status).toBe(400);
    expect((await res.json()).error.field).toBe(field);
  });
});
