import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { appendTurn } from "@/lib/threads/append";
import { scanThreads } from "@/lib/lead/scan";
import { closeRunnerWake } from "@/lib/runners/wake";
import { POST as offer } from "@/app/api/runners/[id]/offers/route";
import { createBareProject } from "./helpers/runs";
import { apiToken, params, request } from "./helpers/api";
import { poolRun, runnerToken } from "./helpers/runners";
import { startRunnerApi } from "./helpers/runner-http";

// A long lease: a held poll re-checks only once a lease TTL has passed, so a trigger that
// arrives within its wait can only have come from the Redis wake-up.
process.env.LEASE_TTL_MS = "120000";

let api: Awaited<ReturnType<typeof startRunnerApi>>;
beforeAll(async () => { api = await startRunnerApi(); });
afterAll(async () => { await api.stop(); await closeRunnerWake(); });

/** The runner API over real HTTP, as a runner calls it. */
async function call(method: string, path: string, token: string, agentId: string, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, {
    method, headers: { authorization: `Bearer ${token}`, "x-agent-id": agentId, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
const register = async (token: string, body: Record<string, unknown>) => {
  const id = randomUUID();
  expect((await call("POST", "/api/runner/agents", token, id, body)).status).toBe(201);
  return id;
};
const poll = async (token: string, agentId: string, wait = 0) => {
  const res = await call("GET", `/api/runner/poll?wait=${wait}`, token, agentId);
  expect(res.status).toBe(200);
  return res.body.trigger;
};
const complete = (token: string, agentId: string, runId: string, body: Record<string, unknown>) => call("POST", `/api/runner/runs/${runId}/complete`, token, agentId, body);

async function personThread(projectId: string, text: string) {
  const thread = await getDb().thread.create({ data: { projectId, title: "Question" } });
  const turn = await appendTurn(thread.id, { actor: "person", actorId: "user:x", text });
  return { thread, turn: turn! };
}

describe("trigger order over HTTP long-polls", () => {
  it("a worker gets offered → assigned → mention → pool; a lead gets offered → assigned → mention → worker finished, never the pool", async () => {
    const { team, project, profile } = await createBareProject();
    const token = await runnerToken(team.id);
    const operator = await apiToken(team.id, "operator");
    const worker = await register(token, { name: "box-w", maxConcurrent: 10 });
    const lead = await register(token, { name: "box-l", role: "lead", maxConcurrent: 10 });
    const helper = await register(token, { name: "helper" });
    const db = getDb();

    // A remote worker's run that ends after the lead registered: the lead's worker_finished.
    const done = await poolRun(project, profile, 1);
    expect((await poll(token, helper)).run.id).toBe(done.run.id);
    expect((await complete(token, helper, done.run.id, { status: "succeeded", summary: "Added the flag" })).body).toEqual({ applied: true });

    const pooled = await poolRun(project, profile, 2);
    const toWorker = await poolRun(project, profile, 3);
    const toLead = await poolRun(project, profile, 4);
    await db.run.update({ where: { id: toWorker.run.id }, data: { remoteAgentId: worker } });
    await db.run.update({ where: { id: toLead.run.id }, data: { remoteAgentId: lead } });
    const offeredW = await poolRun(project, profile, 5);
    const offeredL = await poolRun(project, profile, 6);
    expect((await offer(request("POST", `/api/runners/${worker}/offers`, operator, { promptId: offeredW.prompt.id }), params(worker))).status).toBe(201);
    expect((await offer(request("POST", `/api/runners/${lead}/offers`, operator, { promptId: offeredL.prompt.id }), params(lead))).status).toBe(201);
    const askW = await personThread(project.id, "@box-w can you check the build?");
    const askL = await personThread(project.id, "Thoughts, @box-l?");
    expect(askW.turn.mentionsAgentId).toBe(worker);
    expect(askL.turn.mentionsAgentId).toBe(lead);

    const me = await call("GET", "/api/runner/me", token, worker);
    expect(me.body.inbox).toEqual({ offered: 1, assigned: 1, pool: 3, mentions: 1, inProgress: 0 });

    const w = [await poll(token, worker), await poll(token, worker), await poll(token, worker), await poll(token, worker)];
    expect(w.map((t) => t.type)).toEqual(["task_offered", "task_assigned", "unread_mention", "pool_task"]);
    expect(w[0].offer.promptId).toBe(offeredW.prompt.id);
    expect(w[1].run.id).toBe(toWorker.run.id);
    expect(w[2]).toMatchObject({ instruction: "You have unread mentions, check messages", run: { kind: "lead", threadId: askW.thread.id, promptId: null } });
    expect(w[2].run.prompt).toContain("@box-w can you check the build?");
    // The runner wires its agent's CLI to the MCP endpoint, so the lead is told of its tools.
    expect(w[2].run.prompt).toContain("To act, use the tools of the `ringmaster` MCP server: create_prompt queues work");
    expect(w[3].run.id).toBe(pooled.run.id);
    expect((await call("GET", "/api/runner/me", token, worker)).body.inbox.mentions).toBe(0);

    const l = [await poll(token, lead), await poll(token, lead), await poll(token, lead), await poll(token, lead), await poll(token, lead)];
    expect(l.map((t) => t?.type ?? null)).toEqual(["task_offered", "task_assigned", "unread_mention", "worker_finished", null]);
    expect(l[1].run.id).toBe(toLead.run.id);
    expect(l[2].run.threadId).toBe(askL.thread.id);
    const promptThread = await db.thread.findUniqueOrThrow({ where: { promptId: done.prompt.id } });
    expect(l[3]).toMatchObject({ instruction: `Worker completed task ${done.prompt.id}, review results`, run: { kind: "lead", threadId: promptThread.id } });
    expect(l[3].run.prompt).toContain(`Run ${done.run.id} ended succeeded.\n\nIts summary:\nAdded the flag`);
    // The offered prompts' runs are still in the pool: the lead never took one.
    expect((await db.run.findUniqueOrThrow({ where: { id: offeredL.run.id } })).status).toBe("queued");
  });
});

describe("exactly once", () => {
  it("each finished worker run gives one lead one trigger, however many leads hold polls at once", async () => {
    const { team, project, profile } = await createBareProject();
    const token = await runnerToken(team.id);
    const leads = await Promise.all([1, 2, 3].map((n) => register(token, { name: `lead-${n}`, role: "lead", maxConcurrent: 10 })));
    const worker = await register(token, { name: "worker", maxConcurrent: 10 });
    const runs = [];
    for (const n of [1, 2, 3, 4]) runs.push(await poolRun(project, profile, n));
    for (const _ of runs) expect((await poll(token, worker)).type).toBe("pool_task");

    // Two held polls per lead, then the four runs end: the wake-ups answer them.
    const taken: Array<{ lead: string; trigger: { type: string; run: { id: string; threadId: string } } }> = [];
    const slot = async (lead: string) => {
      let trigger = await poll(token, lead, 5);
      while (trigger) {
        taken.push({ lead, trigger });
        trigger = await poll(token, lead, 1);
      }
    };
    const slots = [...leads, ...leads].map(slot);
    const statuses = ["succeeded", "failed", "timed_out", "cancelled"];
    await Promise.all(runs.map(({ run }, i) => complete(token, worker, run.id, { status: statuses[i] })));
    await Promise.all(slots);
    // Whatever a slot missed while it was between polls is still there, once.
    for (const lead of leads) await slot(lead);

    expect(taken.map((t) => t.trigger.type)).toEqual(["worker_finished", "worker_finished", "worker_finished", "worker_finished"]);
    const db = getDb();
    const threads = await db.thread.findMany({ where: { promptId: { in: runs.map((r) => r.prompt.id) } } });
    expect(new Set(taken.map((t) => t.trigger.run.threadId))).toEqual(new Set(threads.map((t) => t.id)));
    expect(await db.run.count({ where: { projectId: project.id, kind: "lead" } })).toBe(4);
    expect(await db.run.count({ where: { projectId: project.id, kind: "executor", leadNotifiedAt: null } })).toBe(0);
  });

  it("mentions are one trigger for one of two polls of their agent; a held poll wakes when one is written; the answer goes to the thread", async () => {
    const { team, project } = await createBareProject();
    const token = await runnerToken(team.id);
    const agent = await register(token, { name: "box-1", maxConcurrent: 5 });
    const { thread } = await personThread(project.id, "@box-1: why did the build fail? cc @nobody");
    await appendTurn(thread.id, { actor: "person", actorId: "user:x", text: "also @box-1 look at the logs" });
    // Two polls at once: one run reads both mentions of the thread.
    const both = await Promise.all([poll(token, agent, 1), poll(token, agent, 1)]);
    const got = both.filter(Boolean);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ type: "unread_mention", run: { threadId: thread.id } });
    expect(got[0].run.prompt).toContain("also @box-1 look at the logs");

    const res = await complete(token, agent, got[0].run.id, { status: "succeeded", summary: "The lockfile was stale." });
    expect(res.body).toEqual({ applied: true });
    const turns = await getDb().turn.findMany({ where: { threadId: thread.id }, orderBy: { seq: "asc" } });
    expect(turns.map((t) => [t.actor, t.content, t.status, t.mentionsAgentId])).toEqual([
      ["person", "@box-1: why did the build fail? cc @nobody", "evaluated", agent],
      ["person", "also @box-1 look at the logs", "evaluated", agent],
      ["lead", "The lockfile was stale.", "sent", null],
    ]);

    // A held poll is answered the moment a new mention is written (well inside the wait and
    // the 120 s lease slice: only the wake-up can answer it).
    const held = poll(token, agent, 30);
    const early = await Promise.race([held.then(() => "answered"), new Promise((r) => setTimeout(() => r("held"), 300))]);
    expect(early).toBe("held");
    const started = Date.now();
    await appendTurn(thread.id, { actor: "person", actorId: "user:x", text: "thanks @box-1." });
    expect(await held).toMatchObject({ type: "unread_mention", run: { threadId: thread.id } });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await poll(token, agent)).toBeNull();
  });

  it("a turn that mentions a runner agent is its to answer: the project's own lead does not wake on it", async () => {
    const { team, project } = await createBareProject();
    const token = await runnerToken(team.id);
    await register(token, { name: "box-2" });
    const mention = await personThread(project.id, "@box-2 please look");
    const plain = await personThread(project.id, "please look");
    await scanThreads();
    const db = getDb();
    expect(await db.run.count({ where: { threadId: mention.thread.id } })).toBe(0);
    expect(await db.run.count({ where: { threadId: plain.thread.id, kind: "lead", remote: false } })).toBe(1);
  });
});
