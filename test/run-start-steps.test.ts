import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { executeRun } from "@/lib/runs/execute";
import { workerId } from "@/lib/worker-id";
import { captureLogs } from "@/lib/log-capture";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";

/**
 * A run's start does its independent steps side by side (the worktree beside the token, prices
 * and credentials; the sandbox's set-up beside recording the start): when one fails, the run
 * fails with its reason once the others have ended, and what they made is released.
 */
/** A project's first prompt, its run claimed by the tick and queued. */
async function queuedRun(title: string) {
  const { project } = await createTeamWithProject({ cooldownMs: 0 });
  const prompt = await addPrompt(project.id, { number: 1, title, body: "```file a.txt\na\n```\n" });
  await runTick(project.id);
  return { project, prompt, run: await getDb().run.findFirstOrThrow({ where: { promptId: prompt.id, status: "queued" } }) };
}

/** Executes the run with its own tmp dir, where its sandbox's HOME and sockets live; what it left there. */
async function executeLeaving(runId: string): Promise<string[]> {
  const tmp = await mkdtemp(join(tmpdir(), "rm-start-steps-"));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    await executeRun(runId);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
  const left = await readdir(tmp);
  await rm(tmp, { recursive: true, force: true });
  return left;
}

/**
 * Runs `work` while Postgres refuses `event` (e.g. `INSERT ON "ApiToken"`) for the rows `when`
 * matches, with "<what> refused by the test".
 */
async function whileRefused<T>(what: string, event: string, when: string, work: () => Promise<T>): Promise<T> {
  const db = getDb();
  await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_${what}() RETURNS trigger AS $$
    BEGIN RAISE EXCEPTION '${what} refused by the test'; END $$ LANGUAGE plpgsql`);
  const table = event.slice(event.lastIndexOf(" ON ") + 4);
  await db.$executeRawUnsafe(`CREATE TRIGGER refuse_${what} BEFORE ${event} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION refuse_${what}()`);
  try {
    return await work();
  } finally {
    await db.$executeRawUnsafe(`DROP TRIGGER refuse_${what} ON ${table}`);
  }
}

describe("a run's start steps", () => {
  it("a start that Postgres refuses while the sandbox opens fails the run and leaves no sandbox behind; the branch stays the prompt's", async () => {
    const db = getDb();
    const { prompt, run } = await queuedRun("Refused start");
    const left = await whileRefused("start", `UPDATE OF status ON "Run"`, `NEW.id = '${run.id}' AND NEW.status = 'running'`, () => executeLeaving(run.id));
    const after = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(after.status).toBe("failed");
    expect(after.error).toContain("start refused by the test");
    expect(after.startedAt).toBeNull();
    expect(left).toEqual([]);
    expect((await db.prompt.findUniqueOrThrow({ where: { id: prompt.id } })).branch).toBe("ringmaster/1-refused-start");
  });

  it("a run token that Postgres refuses beside the checkout fails the run; the branch made meanwhile is the prompt's all the same", async () => {
    const db = getDb();
    const { prompt, run } = await queuedRun("Refused token");
    const left = await whileRefused("token", `INSERT ON "ApiToken"`, `NEW."runId" = '${run.id}'`, () => executeLeaving(run.id));
    const after = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect([after.status, after.startedAt]).toEqual(["failed", null]);
    expect(after.error).toContain("token refused by the test");
    expect(left).toEqual([]);
    expect((await db.prompt.findUniqueOrThrow({ where: { id: prompt.id } })).branch).toBe("ringmaster/1-refused-token");
  });

  it("a checkout that fails beside the sandbox's set-up fails the run and leaves no sandbox behind", async () => {
    const db = getDb();
    const { project, run } = await queuedRun("No base");
    await db.project.update({ where: { id: project.id }, data: { activeBranch: "no-such-branch" } });
    expect(await executeLeaving(run.id)).toEqual([]);
    const after = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect([after.status, after.startedAt]).toEqual(["failed", null]);
    expect(after.error).toContain("no-such-branch");
  });

  it("two workers given the same run: one claims it (with its lease) and runs the agent once, the other returns at once; a remote run is claimed by neither", async () => {
    const db = getDb();
    const { project, prompt, run } = await queuedRun("Once");
    await Promise.all([executeRun(run.id), executeRun(run.id)]);
    const after = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect([after.status, after.error]).toEqual(["succeeded", null]);
    expect(after.workerId).toBe(workerId());
    expect(await db.run.count({ where: { promptId: prompt.id } })).toBe(1);
    const logs = (await db.runLog.findMany({ where: { runId: run.id } })).map((l) => l.content).join("\n");
    // One agent started: one init line and one result in the run's log.
    expect([logs.match(/"subtype":"init"/g)?.length, logs.match(/"type":"result"/g)?.length]).toEqual([1, 1]);

    const remote = await db.run.create({ data: { projectId: project.id, kind: "planner", adapter: after.adapter, agentProfileId: after.agentProfileId, remote: true } });
    await executeRun(remote.id);
    expect(await db.run.findUniqueOrThrow({ where: { id: remote.id } })).toMatchObject({ status: "queued", workerId: null, leaseExpiresAt: null });
  });

  it("the agent's start is logged once with each stage's duration and each side-by-side step's own", async () => {
    const { run } = await queuedRun("Timed");
    const logged = captureLogs("info");
    await executeRun(run.id);
    const started = logged.filter((l) => l.msg === "agent started") as Array<{ runId: string; stages: Record<string, number>; steps: Record<string, number> }>;
    expect(started.map((l) => l.runId)).toEqual([run.id]);
    expect(Object.keys(started[0].stages)).toEqual(["claimed", "worktree", "prepared", "started", "sandbox", "spawned", "total"]);
    expect(Object.keys(started[0].steps).sort()).toEqual(["checkout", "credentials", "prices", "record", "runToken", "sandbox", "sandboxShell"]);
    for (const ms of Object.values(started[0].steps)) expect(ms).toBeGreaterThanOrEqual(0);
    // The worktree stage holds its four steps: it lasted at least as long as the slowest (clock reads a millisecond apart).
    // (A step named `token` would be censored by the log: its name is runToken.)
    const { checkout, runToken, prices, credentials } = started[0].steps;
    expect(started[0].stages.worktree + 1).toBeGreaterThanOrEqual(Math.max(checkout, runToken, prices, credentials));
  });
});
