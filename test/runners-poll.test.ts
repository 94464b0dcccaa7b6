import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { getDb, getPool } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { closeRunnerWake, wakeRunners } from "@/lib/runners/wake";
import { pollForTrigger } from "@/lib/runners/poll";
import { GET as poll } from "@/app/api/runner/poll/route";
import { POST as answer } from "@/app/api/runner/offers/[id]/route";
import { POST as offer } from "@/app/api/runners/[id]/offers/route";
import { createBareProject, queuedJobs } from "./helpers/runs";
import { waitUntil } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";
import { poolRun, registeredAgent, runnerRequest, runnerToken } from "./helpers/runners";

// A long lease: a poll held for 30 s then re-checks only once a lease TTL has passed, so a
// trigger that arrives within the wait can only have come from the Redis wake-up.
process.env.LEASE_TTL_MS = "120000";

const noParams = { params: Promise.resolve({}) };
const WAIT_MESSAGE = "Wait must be a whole number from 0 to 60 seconds";
afterAll(closeRunnerWake);

const pollOnce = async (token: string, agentId: string, wait = 0) => {
  const res = await poll(runnerRequest("GET", `/api/runner/poll?wait=${wait}`, token, agentId), noParams);
  expect(res.status).toBe(200);
  return (await res.json()).trigger;
};

describe("the runner long-poll", () => {
  it("is held open and answered the moment the tick queues a run for runners (a Redis wake-up, not a sleep loop)", async () => {
    const { team, project, profile } = await createBareProject();
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { useRunners: true, spawnCooldownMs: 0 } });
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    const token = await runnerToken(team.id);
    const agent = await registeredAgent(token);
    const held = pollOnce(token, agent, 30);
    // The poll is held: nothing to claim yet.
    const early = await Promise.race([held.then(() => "answered"), new Promise((r) => setTimeout(() => r("held"), 300))]);
    expect(early).toBe("held");
    const prompt = await getDb().prompt.create({ data: { projectId: project.id, planningKey: "main", number: 7, title: "Add a flag", body: "Add --verbose" } });
    const queuedAt = Date.now();
    const result = await runTick(project.id);
    expect(result).toMatchObject({ skipped: false, decision: { kind: "spawn_executor", promptId: prompt.id } });
    const trigger = await held;
    // Well inside the 30 s wait and the 120 s lease slice: only the wake-up can have answered it.
    expect(Date.now() - queuedAt).toBeLessThan(20_000);
    expect(trigger).toMatchObject({
      type: "pool_task", instruction: `Work on task ${prompt.id}`,
      run: { promptId: prompt.id, prompt: "# Prompt 7: Add a flag\n\nAdd --verbose", branch: "ringmaster/7-add-a-flag", baseBranch: "main", adapter: "demo", project: { id: project.id } },
    });
    expect(trigger.run.token).toMatch(/^rm_run_/);
    const run = await getDb().run.findUniqueOrThrow({ where: { id: trigger.run.id } });
    expect(run).toMatchObject({ remote: true, status: "running", remoteAgentId: agent, workerId: `runner:${agent}`, branch: "ringmaster/7-add-a-flag" });
    // No spawn worker was asked to run it.
    expect(await queuedJobs("spawn")).toEqual([]);
    expect(profile.adapter).toBe("demo");
  });

  it("answers { trigger: null } after `wait` seconds, and refuses a bad wait with its field", async () => {
    const { team } = await createBareProject();
    const token = await runnerToken(team.id);
    const agent = await registeredAgent(token);
    expect(await pollOnce(token, agent, 1)).toBeNull();
    const bad = await poll(runnerRequest("GET", "/api/runner/poll?wait=61", token, agent), noParams);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ field: "wait", message: WAIT_MESSAGE });
  });

  it("brings back a closed runner that polls again, but not with a poll it already gave up on", async () => {
    const { team } = await createBareProject();
    const token = await runnerToken(team.id);
    const agent = await registeredAgent(token);
    await getDb().agent.update({ where: { id: agent }, data: { status: "offline" } });
    const gone = new AbortController();
    gone.abort();
    const late = await poll(new Request(runnerRequest("GET", "/api/runner/poll?wait=0", token, agent), { signal: gone.signal }), noParams);
    expect(await late.json()).toEqual({ trigger: null });
    expect((await getDb().agent.findUniqueOrThrow({ where: { id: agent } })).status).toBe("offline");
    expect(await pollOnce(token, agent, 0)).toBeNull();
    expect((await getDb().agent.findUniqueOrThrow({ where: { id: agent } })).status).toBe("idle");
    // A busy runner polling (for an offer, say) stays busy.
    await getDb().agent.update({ where: { id: agent }, data: { status: "busy" } });
    expect(await pollOnce(token, agent, 0)).toBeNull();
    expect((await getDb().agent.findUniqueOrThrow({ where: { id: agent } })).status).toBe("busy");
  });

  it("a held poll whose runner went away, or whose token was revoked, answers null and takes no work", async () => {
    const { team, project, profile } = await createBareProject();
    const token = await runnerToken(team.id);
    const agent = await registeredAgent(token);
    // Counts the agent's row updates: a poll marks it seen when it arrives (its token's check)
    // and again in each look for work, in the look's transaction.
    await getPool().query(`CREATE TABLE IF NOT EXISTS poll_looks (agent text)`);
    await getPool().query(`CREATE OR REPLACE FUNCTION count_poll_look() RETURNS trigger AS $$ BEGIN INSERT INTO poll_looks VALUES (NEW.id); RETURN NEW; END $$ LANGUAGE plpgsql`);
    await getPool().query(`CREATE OR REPLACE TRIGGER poll_look AFTER UPDATE ON "Agent" FOR EACH ROW EXECUTE FUNCTION count_poll_look()`);
    const looks = async () => (await getPool().query(`SELECT count(*)::int AS n FROM poll_looks WHERE agent = $1`, [agent])).rows[0].n as number;
    // Held: its first look for work found nothing (it committed, so a run added now is not in it).
    const heldPoll = async (signal?: AbortSignal) => {
      const before = await looks();
      const req = runnerRequest("GET", "/api/runner/poll?wait=30", token, agent);
      const answer = poll(signal ? new Request(req, { signal }) : req, noParams).then((r) => r.json());
      await waitUntil("the poll has looked", async () => (await looks()) >= before + 2);
      return { answer };
    };

    const away = new AbortController();
    const { answer: abandoned } = await heldPoll(away.signal);
    const { run } = await poolRun(project, profile, 1);
    away.abort();
    expect(await abandoned).toEqual({ trigger: null });
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "queued", remoteAgentId: null });

    await getDb().run.update({ where: { id: run.id }, data: { status: "cancelled" } });
    const { answer: revoked } = await heldPoll();
    await getDb().apiToken.updateMany({ where: { teamId: team.id, kind: "runner" }, data: { revokedAt: new Date() } });
    const next = await poolRun(project, profile, 2);
    await wakeRunners(team.id);
    expect(await revoked).toEqual({ trigger: null });
    expect(await getDb().run.findUniqueOrThrow({ where: { id: next.run.id } })).toMatchObject({ status: "queued", remoteAgentId: null });
  });

  it("a look for work that fails rejects the poll with its error and leaves no wake-up waiter behind", async () => {
    const { team } = await createBareProject();
    const token = await runnerToken(team.id);
    const id = await registeredAgent(token);
    const agent = await getDb().agent.findUniqueOrThrow({ where: { id } });
    const caller = { tokenId: (await getDb().apiToken.findFirstOrThrow({ where: { teamId: team.id, kind: "runner" } })).id, teamId: team.id, projectId: null };
    // The look marks the agent seen first; this agent's row refuses the update.
    await getPool().query(`CREATE OR REPLACE FUNCTION refuse_agent_look() RETURNS trigger AS $$ BEGIN
      IF NEW.id = '${id}' THEN RAISE EXCEPTION 'look refused for %', NEW.id; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await getPool().query(`CREATE OR REPLACE TRIGGER refuse_agent_look BEFORE UPDATE ON "Agent" FOR EACH ROW EXECUTE FUNCTION refuse_agent_look()`);
    try {
      await expect(pollForTrigger(caller, agent, 0)).rejects.toThrow(`look refused for ${id}`);
    } finally {
      await getPool().query(`DROP TRIGGER refuse_agent_look ON "Agent"`);
    }
    const hub = (globalThis as unknown as { __ringmasterRunnerWake: { waiters: Map<string, Set<unknown>> } }).__ringmasterRunnerWake;
    expect(hub.waiters.has(team.id)).toBe(false);
  });

  it("hands a run to exactly one of many agents polling at once", async () => {
    const { team, project, profile } = await createBareProject();
    const token = await runnerToken(team.id);
    const agents = await Promise.all(Array.from({ length: 6 }, () => registeredAgent(token)));
    const { run } = await poolRun(project, profile, 1);
    const triggers = await Promise.all(agents.map((a) => pollOnce(token, a, 0)));
    const winners = triggers.filter(Boolean);
    expect(winners).toHaveLength(1);
    expect(winners[0].run.id).toBe(run.id);
  });

  it("keeps the limits: leads never take from the pool, maxConcurrent per agent, capabilities match the prompt's domain, a project token sees its project", async () => {
    const { team, project, profile } = await createBareProject();
    const other = await createBareProject();
    await getDb().project.update({ where: { id: other.project.id }, data: { teamId: team.id } });
    const token = await runnerToken(team.id);
    const lead = await registeredAgent(token, { role: "lead" });
    const one = await registeredAgent(token, { maxConcurrent: 1 });
    const gpu = await registeredAgent(token, { capabilities: ["gpu"], maxConcurrent: 5 });
    const scoped = await registeredAgent(await runnerToken(team.id, other.project.id), { maxConcurrent: 5 });
    const a = await poolRun(project, profile, 1);
    const b = await poolRun(project, profile, 2, "gpu");
    const c = await poolRun(project, profile, 3);

    expect(await pollOnce(token, lead)).toBeNull();
    expect((await pollOnce(token, one)).run.id).toBe(a.run.id);
    // Its one slot is taken; the gpu prompt is not for it anyway.
    expect(await pollOnce(token, one)).toBeNull();
    expect((await pollOnce(token, gpu)).run.id).toBe(b.run.id);
    expect((await pollOnce(token, gpu)).run.id).toBe(c.run.id);
    // A token scoped to the other project never sees this project's work.
    const d = await poolRun(project, profile, 4);
    expect(await pollOnce(await runnerToken(team.id, other.project.id), scoped)).toBeNull();
    expect((await getDb().run.findUniqueOrThrow({ where: { id: d.run.id } })).status).toBe("queued");
  });
});

describe("offers", () => {
  it("go to one agent (task_offered), an accept assigns the run (task_assigned on the next poll), a reject leaves it in the pool", async () => {
    const { team, project, profile } = await createBareProject();
    const token = await runnerToken(team.id);
    const operator = await apiToken(team.id, "operator");
    const alice = await registeredAgent(token, { maxConcurrent: 3 });
    const bob = await registeredAgent(token, { maxConcurrent: 3 });
    const first = await poolRun(project, profile, 1);
    const second = await poolRun(project, profile, 2);

    const made = await offer(request("POST", `/api/runners/${alice}/offers`, operator, { promptId: first.prompt.id }), params(alice));
    expect(made.status).toBe(201);
    // While the offer is open nobody else takes that prompt from the pool.
    expect((await pollOnce(token, bob)).run.id).toBe(second.run.id);
    expect(await pollOnce(token, bob)).toBeNull();

    const offered = await pollOnce(token, alice);
    expect(offered).toMatchObject({ type: "task_offered", instruction: `Task ${first.prompt.id} offered, check if it fits your skills`, offer: { promptId: first.prompt.id } });
    const bad = await answer(runnerRequest("POST", `/api/runner/offers/${offered.offer.id}`, token, alice, { accept: "yes" }), params(offered.offer.id));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("accept");
    // Another agent cannot answer alice's offer.
    expect((await answer(runnerRequest("POST", `/api/runner/offers/${offered.offer.id}`, token, bob, { accept: true }), params(offered.offer.id))).status).toBe(404);
    const accepted = await answer(runnerRequest("POST", `/api/runner/offers/${offered.offer.id}`, token, alice, { accept: true }), params(offered.offer.id));
    expect((await accepted.json()).offer.status).toBe("accepted");
    expect(await pollOnce(token, bob)).toBeNull();
    expect(await pollOnce(token, alice)).toMatchObject({ type: "task_assigned", run: { id: first.run.id } });

    const third = await poolRun(project, profile, 3);
    await offer(request("POST", `/api/runners/${bob}/offers`, operator, { promptId: third.prompt.id }), params(bob));
    const toBob = await pollOnce(token, bob);
    const rejected = await answer(runnerRequest("POST", `/api/runner/offers/${toBob.offer.id}`, token, bob, { accept: false, reason: "no GPU here" }), params(toBob.offer.id));
    expect((await rejected.json()).offer.status).toBe("rejected");
    expect(await getDb().taskOffer.findUniqueOrThrow({ where: { id: toBob.offer.id } })).toMatchObject({ status: "rejected", reason: "no GPU here" });
    expect(await pollOnce(token, alice)).toMatchObject({ type: "pool_task", run: { id: third.run.id } });
  });

  it("an expired offer, or one whose agent went silent, releases the prompt to the others; bad offers name their field", async () => {
    const { team, project, profile } = await createBareProject();
    const token = await runnerToken(team.id);
    const operator = await apiToken(team.id, "operator");
    const alice = await registeredAgent(token);
    const bob = await registeredAgent(token);
    const first = await poolRun(project, profile, 1);
    const made = await (await offer(request("POST", `/api/runners/${alice}/offers`, operator, { promptId: first.prompt.id }), params(alice))).json();
    expect(await pollOnce(token, bob)).toBeNull();
    await getDb().taskOffer.update({ where: { id: made.offer.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await pollOnce(token, bob)).run.id).toBe(first.run.id);

    const second = await poolRun(project, profile, 2);
    const carol = await registeredAgent(token);
    await offer(request("POST", `/api/runners/${alice}/offers`, operator, { promptId: second.prompt.id }), params(alice));
    expect(await pollOnce(token, carol)).toBeNull();
    // alice has not been heard from for longer than three lease TTLs.
    await getDb().agent.update({ where: { id: alice }, data: { lastSeenAt: new Date(Date.now() - 3 * 120_000 - 1000) } });
    expect((await pollOnce(token, carol)).run.id).toBe(second.run.id);

    const missing = await offer(request("POST", `/api/runners/${carol}/offers`, operator, {}), params(carol));
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.field).toBe("promptId");
    const notWaiting = await offer(request("POST", `/api/runners/${bob}/offers`, operator, { promptId: first.prompt.id }), params(bob));
    expect(notWaiting.status).toBe(409);
    expect((await notWaiting.json()).error.field).toBe("promptId");
    const stranger = await createBareProject();
    expect((await offer(request("POST", `/api/runners/${bob}/offers`, await apiToken(stranger.team.id, "owner"), { promptId: first.prompt.id }), params(bob))).status).toBe(404);
    expect((await offer(request("POST", `/api/runners/${bob}/offers`, await apiToken(team.id, "viewer"), { promptId: first.prompt.id }), params(bob))).status).toBe(403);
    expect(randomUUID()).not.toBe(bob);
  });
});
