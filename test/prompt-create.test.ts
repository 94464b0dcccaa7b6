import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { getDb, getPool, Prisma, type ApprovalPolicy } from "@/lib/db";
import { getQueue } from "@/lib/queues";
import { FRESH_MS } from "@/lib/queues/outbox";
import { getRedis } from "@/lib/redis/connections";
import { teamStreamKey } from "@/lib/events/streams";
import { createRunToken } from "@/lib/auth/tokens";
import { QUEUE_RAN_DRY } from "@/lib/activity/change";
import { createPrompt } from "@/lib/prompts/create";
import { isNumberTaken } from "@/lib/prompts/create-statement";
import type { AuditBy } from "@/lib/audit/record";
import { createTeamWithProject } from "./helpers/fixtures";
import { statementsOf, verbOf } from "./helpers/statements";

const person = (id: string) => ({ kind: "user" as const, id });
const nudgesOf = async (projectId: string) => (await getQueue("tick").getJobs(["waiting", "prioritized", "delayed"], 0, -1))
  .filter((j) => j?.name === "nudge" && j.data.projectId === projectId);
const outboxLeft = async (projectId: string) =>
  (await getPool().query(`SELECT id FROM "Outbox" WHERE payload ->> 'projectId' = $1`, [projectId])).rows.length;
const written = async (projectId: string, teamId: string) => {
  const db = getDb();
  return {
    prompts: await db.prompt.count({ where: { projectId } }),
    approvals: await db.approval.count({ where: { projectId } }),
    audits: await db.auditEvent.count({ where: { teamId, action: "prompt.created" } }),
    activity: await db.activityEvent.count({ where: { projectId, type: "promptsChange" } }),
    outbox: await outboxLeft(projectId),
  };
};

// The statements a prompt's create sent. Its nudge goes out by the fast path (no claim) whenever the
// whole create took under FRESH_MS, which holds both the writer's stamp and its publish; a create
// slower than that (a loaded machine) may have had its rows claimed first, and either list is right.
async function createStatements(create: () => Promise<unknown>) {
  const started = performance.now();
  const { statements } = await statementsOf(create);
  return { verbs: statements.map(verbOf), slow: performance.now() - started >= FRESH_MS };
}
function expectPublished({ verbs, slow }: { verbs: string[]; slow: boolean }, between: string[] = []) {
  const fast = ["WITH", ...between, "DELETE Outbox"];
  if (!slow) expect(verbs).toEqual(fast);
  else expect([fast, ["WITH", "BEGIN", "SELECT Outbox", ...between, "DELETE Outbox", "COMMIT"]]).toContainEqual(verbs);
}

describe("creating a prompt", () => {
  it("writes the prompt, its audit and activity entries and its nudge in one statement, then publishes the nudge", async () => {
    const { project, team, user } = await createTeamWithProject({ loopEnabled: true });
    const before = Date.now();
    let prompt!: Awaited<ReturnType<typeof createPrompt>>;
    const created = await createStatements(async () => {
      prompt = await createPrompt(person(user.id), project, { title: "Add a README", body: "Write it.", priority: 2, domain: "docs" });
    });
    // The create, then the outbox's publish: rows written a moment ago are sent with no claim, then deleted.
    expectPublished(created);
    // As Prisma reads it.
    expect(prompt).toEqual(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } }));
    expect(prompt).toMatchObject({
      projectId: project.id, planningKey: project.planningKey, number: 1, title: "Add a README", body: "Write it.", priority: 2, domain: "docs",
      dependencies: [], status: "pending", origin: "user", approval: "not_required", maxAttempts: 3, createdById: user.id, attempts: 0,
      pinnedAgentId: null, sourceUrl: null, branch: null, completedAt: null,
    });
    expect(prompt.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(prompt.createdAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(prompt.updatedAt).toEqual(prompt.createdAt);

    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { teamId: team.id, action: "prompt.created" } });
    expect(audit).toMatchObject({ actorType: "user", actorId: user.id, targetType: "prompt", targetId: prompt.id, before: null, after: { number: 1, title: "Add a README", priority: 2, approval: "not_required" } });
    expect(audit.createdAt).toEqual(prompt.createdAt);
    const activity = await getDb().activityEvent.findFirstOrThrow({ where: { projectId: project.id, type: "promptsChange" } });
    expect(activity).toMatchObject({ message: "#1 Add a README added", data: { promptId: prompt.id } });
    expect(await getDb().approval.count({ where: { projectId: project.id } })).toBe(0);
    expect(await nudgesOf(project.id)).toHaveLength(1);
    expect((await nudgesOf(project.id))[0].data).toMatchObject({ projectId: project.id, reason: "prompt created" });
    expect(await outboxLeft(project.id)).toBe(0);
    // Open dashboards hear of it once it has committed.
    const events = (await getRedis("producer").xrange(teamStreamKey(team.id), "-", "+")).map(([, fields]) => JSON.parse(fields[1]));
    expect(events).toContainEqual({ type: "promptsChange", projectId: project.id, message: "#1 Add a README added", promptId: prompt.id });

    const second = await createPrompt(person(user.id), project, { title: "Then tests", dependencies: [1], number: 7 });
    expect(second).toMatchObject({ number: 7, dependencies: [1], priority: 3, body: "", domain: null });
    expect((await createPrompt(person(user.id), project, { title: "After seven" })).number).toBe(8);
  });

  it.each<[ApprovalPolicy, boolean, string]>([
    ["none", false, "not_required"], ["none", true, "not_required"],
    ["planner", false, "not_required"], ["planner", true, "pending"],
    ["all", false, "pending"], ["all", true, "pending"],
  ])("policy %s, written by an agent: %s → %s, with its inbox entry when it waits", async (policy, byAgent, approval) => {
    const { project, team } = await createTeamWithProject({ loopEnabled: false });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { approvalPolicy: policy, maxAttempts: 5 } });
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "planner", adapter: "demo", status: "running" } });
    await createRunToken({ id: run.id, projectId: project.id, teamId: team.id }, 60_000);
    const runToken = await getDb().apiToken.findFirstOrThrow({ where: { runId: run.id } });
    const teamToken = await getDb().apiToken.create({ data: { teamId: team.id, role: "operator", name: "ci", tokenHash: `h-${run.id}`, prefix: "p" } });
    const actor: AuditBy = byAgent ? { kind: "token", id: runToken.id } : { kind: "token", id: teamToken.id };
    const prompt = await createPrompt(actor, project, { title: "planned" });
    expect(prompt).toMatchObject({ approval, origin: byAgent ? "planner" : "user", maxAttempts: 5, createdById: null });
    const approvals = await getDb().approval.findMany({ where: { projectId: project.id } });
    expect(approvals).toEqual(approval === "pending"
      ? [expect.objectContaining({ teamId: team.id, kind: "prompt_run", status: "pending", promptId: prompt.id, requestedBy: `token:${actor.id}`, createdAt: prompt.createdAt })]
      : []);
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { teamId: team.id, action: "prompt.created" } });
    expect(audit).toMatchObject({ actorType: "token", actorId: actor.id, after: { approval } });
  });

  it("by Ringmaster itself (an intake): no author id, requested by the system", async () => {
    const { project, team } = await createTeamWithProject({ loopEnabled: false });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { approvalPolicy: "all" } });
    const agent = await getDb().agent.create({ data: { teamId: team.id, name: "backend" } });
    const prompt = await createPrompt({ kind: "system", id: "github:octocat" }, project, { title: "from an issue" }, { sourceUrl: "https://github.com/o/r/issues/1", pinnedAgentId: agent.id });
    expect(prompt).toMatchObject({ origin: "user", approval: "pending", createdById: null, sourceUrl: "https://github.com/o/r/issues/1", pinnedAgentId: agent.id });
    expect(await getDb().approval.findFirstOrThrow({ where: { promptId: prompt.id } })).toMatchObject({ requestedBy: "system" });
    expect(await getDb().auditEvent.findFirstOrThrow({ where: { teamId: team.id, action: "prompt.created" } })).toMatchObject({ actorType: "system", actorId: "github:octocat" });
  });

  it("starts again a loop its queue ran dry on, with its periodic tick; a loop a person stopped stays stopped", async () => {
    const { project, user } = await createTeamWithProject({ loopEnabled: true });
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "stopped", pauseReason: QUEUE_RAN_DRY } });
    const created = await createStatements(() => createPrompt(person(user.id), project, { title: "more work" }));
    expect(await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } })).toMatchObject({ mode: "running", pauseReason: null });
    // The schedule's own read, published beside the nudge.
    expectPublished(created, ["SELECT Project"]);
    expect(await outboxLeft(project.id)).toBe(0);

    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "stopped", pauseReason: null } });
    const stopped = await createStatements(() => createPrompt(person(user.id), project, { title: "still more" }));
    expect((await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } })).mode).toBe("stopped");
    expectPublished(stopped);
  });

  it("gives prompts created at once distinct numbers, each with its own entries", async () => {
    const { project, team, user } = await createTeamWithProject({ loopEnabled: false });
    const made = await Promise.all(Array.from({ length: 12 }, (_, i) => createPrompt(person(user.id), project, { title: `p${i}` })));
    expect(made.map((p) => p.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await written(project.id, team.id)).toEqual({ prompts: 12, approvals: 0, audits: 12, activity: 12, outbox: 0 });
  });

  it("refuses a number already used, naming the field, and writes nothing", async () => {
    const { project, team, user } = await createTeamWithProject({ loopEnabled: false });
    await createPrompt(person(user.id), project, { title: "one", number: 3 });
    const before = await written(project.id, team.id);
    const err = await createPrompt(person(user.id), project, { title: "again", number: 3 }).catch((e) => e);
    expect(err).toBeInstanceOf(ZodError);
    expect((err as ZodError).issues).toEqual([expect.objectContaining({ code: "custom", path: ["number"], message: "#3 already exists" })]);
    expect(await written(project.id, team.id)).toEqual(before);
  });

  it("commits `alongside`'s writes with it, or nothing of either; a conflict of theirs is the caller's, not retried", async () => {
    const { project, team, user } = await createTeamWithProject({ loopEnabled: false });
    const prompt = await createPrompt(person(user.id), project, { title: "with a thread" }, {
      alongside: async (tx, p) => { await tx.thread.create({ data: { projectId: project.id, promptId: p.id, title: p.title } }); },
    });
    expect(await getDb().thread.findFirstOrThrow({ where: { promptId: prompt.id } })).toMatchObject({ title: "with a thread" });
    expect(await nudgesOf(project.id)).toHaveLength(1);
    const before = await written(project.id, team.id);

    let calls = 0;
    const refused = await createPrompt(person(user.id), project, { title: "a second thread" }, {
      alongside: async (tx) => {
        calls++;
        // Thread.promptId is unique: this prompt's thread is taken.
        await tx.thread.create({ data: { projectId: project.id, promptId: prompt.id, title: "taken" } });
      },
    }).catch((e) => e);
    expect(refused).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect((refused as Prisma.PrismaClientKnownRequestError).code).toBe("P2002");
    expect(isNumberTaken(refused)).toBe(false);
    expect(calls).toBe(1);
    expect(await written(project.id, team.id)).toEqual(before);

    // A number taken inside the transaction is retried, as on the pool.
    const [a, b] = await Promise.all(["x", "y"].map((title) => createPrompt(person(user.id), project, { title }, {
      alongside: async (tx, p) => { await tx.thread.create({ data: { projectId: project.id, promptId: p.id, title } }); },
    })));
    expect([a.number, b.number].sort()).toEqual([2, 3]);
  });

  it("refuses bad input naming the field, and trims what it keeps", async () => {
    const { project, team, user } = await createTeamWithProject({ loopEnabled: false });
    const issues = async (input: Record<string, unknown>) =>
      ((await createPrompt(person(user.id), project, input as never).catch((e) => e)) as ZodError).issues.map((i) => [i.path.join("."), i.message]);
    expect(await issues({ title: "   " })).toEqual([["title", "is required"]]);
    expect(await issues({ title: "x".repeat(201) })).toEqual([["title", "must be at most 200 characters"]]);
    expect(await issues({ title: "ok", body: "x".repeat(100_001) })).toEqual([["body", "must be at most 100000 characters"]]);
    expect(await issues({ title: "ok", domain: "d".repeat(51) })).toEqual([["domain", expect.stringContaining("50")]]);
    expect(await written(project.id, team.id)).toEqual({ prompts: 0, approvals: 0, audits: 0, activity: 0, outbox: 0 });
    expect(await createPrompt(person(user.id), project, { title: "  padded  ", domain: "  docs " })).toMatchObject({ title: "padded", domain: "docs", body: "" });
  });

  it("gives up after 21 tries when its number is taken every time, and writes nothing", async () => {
    const { project, team, user } = await createTeamWithProject({ loopEnabled: false });
    // Every insert of this project's prompts fails as a number taken meanwhile would (Postgres's own words).
    const fn = `taken_${project.id.replace(/\W/g, "_")}`;
    await getPool().query(`CREATE FUNCTION "${fn}"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      IF NEW."projectId" = '${project.id}' THEN RAISE unique_violation USING CONSTRAINT = 'Prompt_projectId_planningKey_number_key', MESSAGE = 'duplicate key value violates unique constraint "Prompt_projectId_planningKey_number_key"'; END IF;
      RETURN NEW; END $$`);
    await getPool().query(`CREATE TRIGGER "${fn}" BEFORE INSERT ON "Prompt" FOR EACH ROW EXECUTE FUNCTION "${fn}"()`);
    try {
      const { result: err, statements } = await statementsOf(() => createPrompt(person(user.id), project, { title: "never" }).catch((e) => e));
      expect(isNumberTaken(err)).toBe(true);
      expect(statements.map(verbOf)).toEqual(Array(21).fill("WITH"));
      // With an intake's writes, the same in a transaction each time.
      let calls = 0;
      await expect(createPrompt(person(user.id), project, { title: "never" }, { alongside: async () => { calls++; } })).rejects.toSatisfy(isNumberTaken);
      expect(calls).toBe(0);
    } finally {
      await getPool().query(`DROP TRIGGER "${fn}" ON "Prompt"`);
      await getPool().query(`DROP FUNCTION "${fn}"()`);
    }
    expect(await written(project.id, team.id)).toEqual({ prompts: 0, approvals: 0, audits: 0, activity: 0, outbox: 0 });
  });

  it("of a project without settings fails and writes nothing", async () => {
    const { project, team, user } = await createTeamWithProject({ loopEnabled: false });
    await getDb().projectSettings.delete({ where: { projectId: project.id } });
    await expect(createPrompt(person(user.id), project, { title: "orphan" })).rejects.toThrow(/has no settings/);
    expect(await written(project.id, team.id)).toEqual({ prompts: 0, approvals: 0, audits: 0, activity: 0, outbox: 0 });
  });
});

describe("isNumberTaken", () => {
  it("is the plan's unique number only, from pg or from Prisma's raw query", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const insert = `INSERT INTO "Prompt" (id, "projectId", "planningKey", number, title, body, "updatedAt") VALUES ($1, $2, 'main', 1, 't', '', now())`;
    await getPool().query(insert, ["a", project.id]);
    const numberPg = await getPool().query(insert, ["b", project.id]).catch((e) => e);
    const idPg = await getPool().query(insert.replace(", 1,", ", 2,"), ["a", project.id]).catch((e) => e);
    const numberPrisma = await getDb().$transaction((tx) => tx.$queryRawUnsafe(insert, "c", project.id)).catch((e) => e);
    const idPrisma = await getDb().$transaction((tx) => tx.$queryRawUnsafe(insert.replace(", 1,", ", 3,"), "a", project.id)).catch((e) => e);
    expect([numberPg, numberPrisma].map(isNumberTaken)).toEqual([true, true]);
    expect([idPg, idPrisma, new Error("23505"), null].map(isNumberTaken)).toEqual([false, false, false, false]);
    // Prisma's errors without the adapter's cause, or with part of it: not a number taken, and no throw.
    const prismaError = (meta?: Record<string, unknown>) => new Prisma.PrismaClientKnownRequestError("failed", { code: "P2010", clientVersion: "6", meta });
    const cause = (c: Record<string, unknown>) => prismaError({ driverAdapterError: { cause: c } });
    expect([
      prismaError(), prismaError({}), cause({ originalCode: "23505" }),
      cause({ originalCode: "40001", originalMessage: 'could not serialize "Prompt_projectId_planningKey_number_key"' }),
    ].map(isNumberTaken)).toEqual([false, false, false, false]);
    expect(isNumberTaken(cause({ originalCode: "23505", originalMessage: 'duplicate key value violates unique constraint "Prompt_projectId_planningKey_number_key"' }))).toBe(true);
    // A Postgres speaking German quotes the name otherwise.
    expect(isNumberTaken(cause({ originalCode: "23505", originalMessage: "doppelter Schlüsselwert verletzt Unique-Constraint »Prompt_projectId_planningKey_number_key«" }))).toBe(true);
    expect(isNumberTaken(cause({ originalCode: "23505", originalMessage: 'duplicate key value violates unique constraint "Thread_promptId_key"' }))).toBe(false);
  });
});
