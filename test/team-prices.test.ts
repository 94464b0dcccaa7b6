// A team's own model prices: an admin reads and replaces them (audited, team-scoped, bad input
// a field error that changes nothing), and runs started afterwards are metered by them.
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { GET as getPrices, PUT as putPrices } from "@/app/api/team/prices/route";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { apiToken, request } from "./helpers/api";
import { tickAndRun } from "./helpers/run-once";

const noParams = { params: Promise.resolve({}) };
const sonnet = { model: "claude-sonnet-4-5", input: 1, output: 5, cached: 0.1 };
const put = (token: string, body: unknown) => putPrices(request("PUT", "/api/team/prices", token, body), noParams);

describe("the team's price table", () => {
  it("is read and replaced by an admin only, audited, and seen by no other team", async () => {
    const { team } = await createTeamWithProject();
    const admin = await apiToken(team.id, "admin");
    const operator = await apiToken(team.id, "operator");
    expect((await put(operator, { prices: [sonnet] })).status).toBe(403);
    expect((await getPrices(request("GET", "/api/team/prices", operator), noParams)).status).toBe(403);
    const ok = await put(admin, { prices: [{ ...sonnet, model: " Claude-Sonnet-4-5 " }, { model: "gpt-5", input: "1.5", output: 12, cached: 0 }] });
    expect(ok.status).toBe(200);
    const expected = [sonnet, { model: "gpt-5", input: 1.5, output: 12, cached: 0 }];
    expect(await ok.json()).toEqual({ prices: expected });
    expect(await (await getPrices(request("GET", "/api/team/prices", admin), noParams)).json()).toEqual({ prices: expected });
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { teamId: team.id, action: "prices.team" } });
    expect(audit).toMatchObject({ actorType: "token", before: { prices: [] }, after: { prices: expected } });

    const other = await createTeamWithProject();
    const otherAdmin = await apiToken(other.team.id, "admin");
    expect(await (await getPrices(request("GET", "/api/team/prices", otherAdmin), noParams)).json()).toEqual({ prices: [] });
    expect((await put(otherAdmin, { prices: [] })).status).toBe(200);
    expect(await getDb().priceOverride.count({ where: { teamId: team.id } })).toBe(2);
  });

  it.each([
    ["prices.0.input", { prices: [{ ...sonnet, input: -1 }] }, "must be from 0 to 1000000 USD"],
    ["prices.0.output", { prices: [{ ...sonnet, output: "1e400" }] }, "must be a number"],
    ["prices.0.cached", { prices: [{ ...sonnet, cached: "NaN" }] }, "must be a number"],
    ["prices.0.input", { prices: [{ ...sonnet, input: 1e7 }] }, "must be from 0 to 1000000 USD"],
    ["prices.0.model", { prices: [{ ...sonnet, model: "bad\u0000name" }] }, "must not contain NUL characters"],
    ["prices.0.model", { prices: [{ ...sonnet, model: "rm -rf" }] }, "names a model with letters"],
    ["prices.0.model", { prices: [{ ...sonnet, model: "" }] }, "is required"],
    ["prices", { prices: [sonnet, sonnet] }, "names a model twice"],
    ["prices", { prices: Array.from({ length: 201 }, (_, i) => ({ ...sonnet, model: `m${i}` })) }, "may hold at most 200 models"],
  ])("refuses %s with a field error and changes nothing", async (field, body, message) => {
    const { team } = await createTeamWithProject();
    const admin = await apiToken(team.id, "admin");
    expect((await put(admin, { prices: [sonnet] })).status).toBe(200);
    const res = await put(admin, body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ field, message: expect.stringContaining(message) });
    expect(await getDb().priceOverride.findMany({ where: { teamId: team.id }, select: { model: true, input: true, output: true, cached: true } })).toEqual([sonnet]);
    expect(await getDb().auditEvent.count({ where: { teamId: team.id, action: "prices.team" } })).toBe(1);
  });

  it("meters a run by the team's price, not the list price", async () => {
    const { team, project, profile } = await createTeamWithProject({ cooldownMs: 0 });
    await getDb().agentProfile.update({ where: { id: profile.id }, data: { model: "claude-sonnet-4-5", maxCostUsd: 2 } });
    expect((await put(await apiToken(team.id, "admin"), { prices: [sonnet] })).status).toBe(200);
    // At the list price ($3 in, $15 out) this is $4.50 and would pass the $2 limit; at the team's, $1.50.
    await addPrompt(project.id, { number: 1, title: "Priced", body: "usage 1000000 100000\n" });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    expect(run!.costUsd).toBeCloseTo(1.5, 10);
  });
});
