// The writes and reads of every run's start go to the pool as one statement each, not through
// Prisma's query compiler (whose statements name the schema: "public"."…").
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { actorForToken } from "@/lib/auth/actor";
import { createRunToken, revokeRunToken } from "@/lib/auth/tokens";
import { teamPriceTable } from "@/lib/budgets/prices";
import { recordPromptBranch, recordRunStarted } from "@/lib/runs/start-record";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { statementsOf, verbOf } from "./helpers/statements";

const oneOwnStatement = (statements: string[], verb: string) => {
  expect(statements.map(verbOf)).toEqual([verb]);
  expect(statements[0]).not.toContain('"public".');
};

describe("a run's start", () => {
  it("makes the run's token in one statement, and a retry's start renews it: a new secret, not revoked, a new expiry", async () => {
    const { project, team } = await createTeamWithProject({ loopEnabled: false });
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "executor", adapter: "demo", status: "starting" } });
    const before = Date.now();
    const { result: first, statements } = await statementsOf(() => createRunToken({ id: run.id, projectId: project.id, teamId: team.id }, 60_000));
    oneOwnStatement(statements, "INSERT ApiToken");
    expect(first).toMatch(/^rm_run_[A-Za-z0-9_-]{43}$/);
    const row = await getDb().apiToken.findUniqueOrThrow({ where: { runId: run.id } });
    expect(row).toMatchObject({ teamId: team.id, projectId: project.id, name: `run ${run.id}`, role: "operator", kind: "api", revokedAt: null, prefix: first.slice(0, 12) });
    expect(row.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    expect(row.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(await actorForToken(first)).toMatchObject({ kind: "token", id: row.id, teamId: team.id, role: "operator", projectId: project.id });

    // Revoking this run's token leaves another run's alone.
    const other = await getDb().run.create({ data: { projectId: project.id, kind: "executor", adapter: "demo", status: "starting" } });
    const otherToken = await createRunToken({ id: other.id, projectId: project.id, teamId: team.id }, 60_000);
    await revokeRunToken(run.id);
    expect(await actorForToken(first)).toBeNull();
    expect(await actorForToken(otherToken)).toMatchObject({ kind: "token", projectId: project.id });
    const second = await createRunToken({ id: run.id, projectId: project.id, teamId: team.id }, 120_000);
    expect(second).not.toBe(first);
    const renewed = await getDb().apiToken.findUniqueOrThrow({ where: { runId: run.id } });
    expect(renewed).toMatchObject({ id: row.id, revokedAt: null, prefix: second.slice(0, 12) });
    expect(renewed.expiresAt!.getTime()).toBeGreaterThan(row.expiresAt!.getTime());
    expect(await actorForToken(first)).toBeNull();
    expect(await actorForToken(second)).toMatchObject({ id: row.id });
    expect(await getDb().apiToken.count({ where: { runId: run.id } })).toBe(1);
  });

  it("reads the team's prices in one statement: its own overrides, no other team's", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const { team: other } = await createTeamWithProject({ loopEnabled: false });
    await getDb().priceOverride.createMany({ data: [
      { teamId: team.id, model: "gpt-5", input: 1.25, output: 10, cached: 0.125 },
      { teamId: team.id, model: "claude-sonnet-4-5", input: 3, output: 15, cached: 0.3 },
      { teamId: other.id, model: "gpt-5-mini", input: 9, output: 9, cached: 9 },
    ] });
    const { result: table, statements } = await statementsOf(() => teamPriceTable(team.id));
    oneOwnStatement(statements, "SELECT PriceOverride");
    expect(table).toEqual({
      "claude-sonnet-4-5": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3 },
      "gpt-5": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25 },
    });
    expect(await teamPriceTable("no-such-team")).toEqual({});
  });

  it("records the prompt's branch and the run's start in one statement each; a row gone meanwhile fails the start", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const prompt = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    const run = await getDb().run.create({ data: { projectId: project.id, promptId: prompt.id, kind: "executor", adapter: "demo", status: "starting" } });
    const before = Date.now();

    const { statements: branch } = await statementsOf(() => recordPromptBranch(prompt.id, "ringmaster/1-one"));
    oneOwnStatement(branch, "UPDATE Prompt");
    const updated = await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    expect(updated).toMatchObject({ branch: "ringmaster/1-one", status: "pending" });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(before);

    const { statements: started } = await statementsOf(() => recordRunStarted(run.id, { branch: "ringmaster/1-one", worktreePath: "/wt/1", baseSha: "a".repeat(40) }));
    oneOwnStatement(started, "UPDATE Run");
    const row = await getDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row).toMatchObject({ status: "running", branch: "ringmaster/1-one", worktreePath: "/wt/1", baseSha: "a".repeat(40) });
    expect(row.startedAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(row.startedAt!.getTime()).toBeLessThanOrEqual(Date.now());

    await expect(recordPromptBranch("gone", "b")).rejects.toThrow(/prompt gone no longer exists/);
    await expect(recordRunStarted("gone", { branch: "b", worktreePath: "/wt", baseSha: null })).rejects.toThrow(/run gone no longer exists/);
  });
});
