import { beforeEach, describe, expect, it } from "vitest";
import { getDb, getPool } from "@/lib/db";
import { claimPromptForRun, createPromptlessRun, getClaimProfile } from "@/lib/runs/claim";
import { addPrompt, waitUntil } from "./helpers/fixtures";
import { createBareProject, loopStateOf } from "./helpers/runs";
import { statementsOf, verbOf } from "./helpers/statements";

const now = new Date("2026-11-23T12:00:00.000Z");
const open = { maxExecutors: 1, cooldownMs: 10_000 };

// A team budget sends every claim through the transaction that admits it (lib/budgets/reserve.ts);
// without one a claim is one statement. Both keep the same slot rules.
let teamBudgetUsd: number | null = null;

async function projectWithPrompt() {
  const fixture = await createBareProject();
  await getDb().team.update({ where: { id: fixture.team.id }, data: { dailyBudgetUsd: teamBudgetUsd } });
  // Each run reserves its ceiling of the budget, so several fit.
  await getDb().agentProfile.update({ where: { id: fixture.profile.id }, data: { maxCostUsd: 1 } });
  const prompt = await addPrompt(fixture.project.id, { number: 1, title: "one", body: "" });
  const claim = (limits = open, at = now) =>
    claimPromptForRun({ projectId: fixture.project.id, promptId: prompt.id, profile: fixture.profile, routing: {}, now: at, limits });
  return { ...fixture, prompt, claim };
}

const projectProfile = async (projectId: string) =>
  getDb().agentProfile.findUniqueOrThrow({ where: { id: (await getDb().projectSettings.findUniqueOrThrow({ where: { projectId } })).executorProfileId! } });

const runOf = (projectId: string, kind: "executor" | "planner" | "reviewer_fix" | "architect" | "reflector", status: "running" | "succeeded" | "queued", profileId: string) =>
  getDb().run.create({ data: { projectId, kind, status, adapter: "demo", agentProfileId: profileId } });

describe.each([
  ["in one statement", null, 1],
  ["in a transaction, under a team budget", 50, 15],
] as const)("a claim's slot check (invariant 2), %s", (_path, budget, statements) => {
  beforeEach(() => { teamBudgetUsd = budget; });

  it("claims into a free slot: the prompt in progress, a queued executor run as Prisma reads it, the spawn time recorded", async () => {
    const { project, prompt, profile, claim } = await projectWithPrompt();
    const before = Date.now();
    const { result: claimed, statements: sent } = await statementsOf(() => claim());
    expect(sent).toHaveLength(statements);
    // Queued at the real time (as Prisma stamps it), not the tick's clock.
    expect(claimed!.run.queuedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(claimed!.run.queuedAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(claimed!.run).toMatchObject({ projectId: project.id, promptId: prompt.id, kind: "executor", status: "queued", attempt: 1, agentProfileId: profile.id, adapter: "demo", model: null, reservedUsd: budget && 1 });
    expect(claimed!.run).toEqual(await getDb().run.findUniqueOrThrow({ where: { id: claimed!.run.id } }));
    expect(claimed!.prompt).toEqual(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } }));
    expect(claimed!.prompt).toMatchObject({ id: prompt.id, status: "in_progress", attempts: 0, completedAt: null });
    expect((await loopStateOf(project.id)).lastSpawnAt).toEqual(now);
    expect(await claim()).toBeNull();
  });

  it("gives a pinned prompt's run to its agent, remote whatever the caller asked; an unpinned one stays as asked", async () => {
    const { project, team, prompt, claim } = await projectWithPrompt();
    const agent = await getDb().agent.create({ data: { teamId: team.id, name: "backend", lastSeenAt: now } });
    await getDb().prompt.update({ where: { id: prompt.id }, data: { pinnedAgentId: agent.id } });
    expect((await claim())!.run).toMatchObject({ remote: true, remoteAgentId: agent.id, status: "queued" });
    const other = await addPrompt(project.id, { number: 2, title: "two", body: "" });
    const local = await claimPromptForRun({ projectId: project.id, promptId: other.id, profile: (await projectProfile(project.id)), routing: {}, now, limits: { maxExecutors: 5, cooldownMs: 0 } });
    expect(local!.run).toMatchObject({ remote: false, remoteAgentId: null });
    const third = await addPrompt(project.id, { number: 3, title: "three", body: "" });
    const pooled = await claimPromptForRun({ projectId: project.id, promptId: third.id, profile: (await projectProfile(project.id)), routing: {}, now, limits: { maxExecutors: 5, cooldownMs: 0 }, remote: true });
    expect(pooled!.run).toMatchObject({ remote: true, remoteAgentId: null });
  });

  it("with parallel off a merge not landed yet holds a slot: a merge pending here, an open PR whose prompt is in progress", async () => {
    const { project, profile, claim } = await projectWithPrompt();
    const held = { maxExecutors: 2, cooldownMs: 0, mergesHoldSlot: true };
    const merge = (mergeStatus: "pending" | "merged") =>
      getDb().run.create({ data: { projectId: project.id, kind: "executor", status: "succeeded", mergeStatus, adapter: "demo", agentProfileId: profile.id } });
    const pr = async (number: number, state: "open" | "closed", promptStatus: "in_progress" | "done") => {
      const prompt = await addPrompt(project.id, { number, title: `p${number}`, body: "" });
      await getDb().prompt.update({ where: { id: prompt.id }, data: { status: promptStatus } });
      await getDb().pullRequest.create({ data: { projectId: project.id, promptId: prompt.id, number, url: `https://github.com/a/b/pull/${number}`, state, headBranch: `b${number}`, baseBranch: "main" } });
    };
    await merge("pending");
    await pr(10, "open", "in_progress");
    // Neither holds a slot: a merge that landed, a closed PR, an open PR whose prompt is done.
    await merge("merged");
    await pr(11, "closed", "in_progress");
    await pr(12, "open", "done");
    // Another project's pending merge is not this one's.
    const other = await createBareProject();
    await getDb().run.create({ data: { projectId: other.project.id, kind: "executor", status: "succeeded", mergeStatus: "pending", adapter: "demo", agentProfileId: other.profile.id } });
    expect(await claim(held)).toBeNull();
    expect(await claim({ ...held, maxExecutors: 3 })).not.toBeNull();
  });

  it("with parallel on (the setting left out) a pending merge and an open PR hold no slot", async () => {
    const { project, profile, claim } = await projectWithPrompt();
    await getDb().run.create({ data: { projectId: project.id, kind: "executor", status: "succeeded", mergeStatus: "pending", adapter: "demo", agentProfileId: profile.id } });
    const other = await addPrompt(project.id, { number: 10, title: "p10", body: "" });
    await getDb().prompt.update({ where: { id: other.id }, data: { status: "in_progress" } });
    await getDb().pullRequest.create({ data: { projectId: project.id, promptId: other.id, number: 10, url: "https://github.com/a/b/pull/10", state: "open", headBranch: "b10", baseBranch: "main" } });
    expect(await claim({ maxExecutors: 1, cooldownMs: 0 })).toMatchObject({ run: { status: "queued" } });
  });

  it("waits out the cooldown exactly: refused just inside it, allowed when it has passed", async () => {
    const { project, claim } = await projectWithPrompt();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { lastSpawnAt: new Date(now.getTime() - 9_999) } });
    expect(await claim()).toBeNull();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { lastSpawnAt: new Date(now.getTime() - 10_000) } });
    expect(await claim()).not.toBeNull();
  });

  it("a cooldown of 0 holds nothing, even after a racing claim stamped a later instant than this one's clock", async () => {
    const { project, claim } = await projectWithPrompt();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { lastSpawnAt: new Date(now.getTime() + 50) } });
    expect(await claim({ maxExecutors: 2, cooldownMs: 0 })).not.toBeNull();
  });

  it("counts only live executor and planner runs against the slots; a live planner blocks executors", async () => {
    const { project, profile, claim } = await projectWithPrompt();
    await runOf(project.id, "executor", "succeeded", profile.id);
    await runOf(project.id, "reviewer_fix", "running", profile.id);
    const planner = await runOf(project.id, "planner", "queued", profile.id);
    expect(await claim({ maxExecutors: 5, cooldownMs: 0 })).toBeNull();
    await getDb().run.update({ where: { id: planner.id }, data: { status: "succeeded" } });
    expect(await claim()).not.toBeNull();
  });

  it.each(["architect", "reflector"] as const)("a live campaign %s run holds the planner's slot: no executor starts beside it", async (kind) => {
    const { project, profile, claim } = await projectWithPrompt();
    const run = await runOf(project.id, kind, "running", profile.id);
    expect(await claim({ maxExecutors: 5, cooldownMs: 0 })).toBeNull();
    await getDb().run.update({ where: { id: run.id }, data: { status: "succeeded" } });
    expect(await claim({ maxExecutors: 5, cooldownMs: 0 })).not.toBeNull();
  });

  it("fills executor slots up to the limit and not past it", async () => {
    const { project, profile, claim } = await projectWithPrompt();
    await runOf(project.id, "executor", "running", profile.id);
    expect(await claim({ maxExecutors: 1, cooldownMs: 0 })).toBeNull();
    expect(await claim({ maxExecutors: 2, cooldownMs: 0 })).not.toBeNull();
  });

  it("claims nothing for a project without loop state, or a prompt that is not pending or of another project", async () => {
    const { project, profile, prompt, claim } = await projectWithPrompt();
    const other = await createBareProject();
    // The other project's team budgeted as this one's: its claim takes the same path.
    await getDb().team.update({ where: { id: other.team.id }, data: { dailyBudgetUsd: teamBudgetUsd } });
    expect(await claimPromptForRun({ projectId: other.project.id, promptId: prompt.id, profile, routing: {}, now, limits: open })).toBeNull();
    await getDb().loopState.delete({ where: { projectId: project.id } });
    expect(await claim()).toBeNull();
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("pending");
    expect(await getDb().run.count({ where: { promptId: prompt.id } })).toBe(0);
  });
});

describe("a claim in a transaction (under a budget)", () => {
  beforeEach(() => { teamBudgetUsd = 50; });

  // The last claim of a burst waits for the loop state's row lock behind the others: on a loaded
  // machine that is longer than Prisma's default 5 s transaction timeout, which would fail it.
  it("waits for the loop state's row lock longer than Prisma's default transaction timeout, then claims", async () => {
    const { project, claim } = await projectWithPrompt();
    const holder = await getPool().connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "LoopState" WHERE "projectId" = $1 FOR UPDATE`, [project.id]);
      const claiming = claim({ maxExecutors: 1, cooldownMs: 0 });
      await waitUntil("the claim waiting for the loop state's row lock", async () => (await getPool().query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM "LoopState"%FOR UPDATE%' AND pid <> $1`, [(holder as unknown as { processID: number }).processID])).rows.length > 0);
      await new Promise((r) => setTimeout(r, 6_000));
      await holder.query("COMMIT");
      expect(await claiming).toMatchObject({ run: { projectId: project.id, status: "queued" } });
    } finally {
      holder.release();
    }
  }, 30_000);
});

describe("a claim in one statement", () => {
  beforeEach(() => { teamBudgetUsd = null; });

  it("is given the profile's four columns it needs by one light query", async () => {
    const { profile } = await projectWithPrompt();
    await getDb().agentProfile.update({ where: { id: profile.id }, data: { model: "m", fallbackModel: "f" } });
    expect(await getClaimProfile(profile.id)).toEqual({ id: profile.id, adapter: "demo", model: "m", fallbackModel: "f" });
    expect(await getClaimProfile("no-such-profile")).toBeNull();
  });

  it("is one round trip: the statement that claims", async () => {
    const { claim } = await projectWithPrompt();
    const { result, statements } = await statementsOf(() => claim());
    expect(result).not.toBeNull();
    expect(statements.map(verbOf)).toEqual(["WITH"]);
  });

  // The statement's snapshot is older than the row lock it waits for: a claim that committed in
  // between (here: the slot's run, written under the lock) must be seen, so it claims again after the lock.
  it("claims again under the lock when the loop state moved while it waited: a slot filled meanwhile is not taken twice", async () => {
    const { project, profile, prompt, claim } = await projectWithPrompt();
    const holder = await getPool().connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`UPDATE "LoopState" SET "lastSpawnAt" = $2 WHERE "projectId" = $1`, [project.id, new Date(now.getTime() - 60_000)]);
      await holder.query(`INSERT INTO "Run" (id, "projectId", kind, status, adapter, "agentProfileId") VALUES ('racing-run', $1, 'executor', 'running', 'demo', $2)`, [project.id, profile.id]);
      const claiming = claim({ maxExecutors: 1, cooldownMs: 0 });
      await waitUntil("the claim waiting for the loop state's row lock", async () => (await getPool().query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%locked AS MATERIALIZED%'`)).rows.length > 0);
      await holder.query("COMMIT");
      expect(await claiming).toBeNull();
    } finally {
      holder.release();
    }
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("pending");
    expect(await getDb().run.count({ where: { projectId: project.id } })).toBe(1);
  });

  it("claims in one statement when the lock it waited for changed nothing", async () => {
    const { project, claim } = await projectWithPrompt();
    const holder = await getPool().connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "LoopState" WHERE "projectId" = $1 FOR UPDATE`, [project.id]);
      const claiming = statementsOf(() => claim({ maxExecutors: 1, cooldownMs: 0 }));
      await waitUntil("the claim waiting for the loop state's row lock", async () => (await getPool().query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%locked AS MATERIALIZED%'`)).rows.length > 0);
      await holder.query("COMMIT");
      const { result, statements } = await claiming;
      expect(result).not.toBeNull();
      // Besides the polls above and the holder's COMMIT: the claim's statement, and no transaction.
      expect(statements.filter((sql) => /^(WITH|BEGIN)\b/.test(sql)).map(verbOf)).toEqual(["WITH"]);
    } finally {
      holder.release();
    }
  });
});

describe("a run without a prompt (the planner)", () => {
  it("takes a slot, records the spawn with the planner's loop state, and respects the same limits", async () => {
    const { project, profile } = await createBareProject();
    const withModel = { ...profile, model: "planner-model", fallbackModel: null };
    const input = { projectId: project.id, kind: "planner" as const, profile: withModel, now, loopState: { emergentSpawnCount: 2 }, limits: open };
    const run = await createPromptlessRun(input);
    expect(run).toMatchObject({ projectId: project.id, promptId: null, kind: "planner", status: "queued", agentProfileId: profile.id, adapter: "demo", model: "planner-model" });
    expect(await loopStateOf(project.id)).toMatchObject({ lastSpawnAt: now, emergentSpawnCount: 2 });
    expect(await createPromptlessRun({ ...input, now: new Date(now.getTime() + 60_000) })).toBeNull();
    expect(await getDb().run.count({ where: { projectId: project.id } })).toBe(1);
  });

  it("records the campaign of an architect run; a live one keeps a second promptless run out", async () => {
    const { project, profile } = await createBareProject();
    const campaign = await getDb().campaign.create({ data: { projectId: project.id, title: "c", goal: "g" } });
    const input = { projectId: project.id, kind: "architect" as const, profile, now, loopState: {}, limits: { maxExecutors: 1, cooldownMs: 0 }, campaignId: campaign.id };
    expect(await createPromptlessRun(input)).toMatchObject({ kind: "architect", campaignId: campaign.id, status: "queued" });
    expect(await createPromptlessRun({ ...input, kind: "reflector" })).toBeNull();
  });
});
