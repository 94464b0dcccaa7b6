import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { appendTurn } from "@/lib/threads/append";
import { createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";

const workers: ReturnType<typeof startWorkerProcess>[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => stopWorkerProcess(w, "SIGKILL")));
});

describe("a lead agent acting over MCP from its sandbox", () => {
  it("the demo lead, run by a real worker, queues a prompt and writes to its thread through the MCP gateway", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const db = getDb();
    const thread = await db.thread.create({ data: { projectId: project.id, title: "split the login feature" } });
    // The demo agent carries out the directives of its prompt, which holds the person's turn.
    await appendTurn(thread.id, {
      actor: "person", actorId: "user:u",
      text: ['Split login, please.', 'mcp create_prompt {"title":"Login form","body":"Add the form.","priority":2}', 'mcp post_message {"text":"Queued the login form."}'].join("\n"),
    });
    workers.push(startWorkerProcess());
    await waitForWorkers(workers[0]);
    const run = await waitUntil("the lead run to end", async () => {
      const r = await db.run.findFirst({ where: { threadId: thread.id, status: { in: ["succeeded", "failed"] } } });
      return r && (await db.turn.count({ where: { threadId: thread.id, actor: "lead", action: "message", content: { startsWith: "Done:" } } })) ? r : null;
    }, 90_000).catch((err) => { throw new Error(`${err.message}\n${workers[0].output()}`); });
    expect(run).toMatchObject({ kind: "lead", status: "succeeded" });

    const prompt = await db.prompt.findFirstOrThrow({ where: { projectId: project.id } });
    expect([prompt.number, prompt.title, prompt.body, prompt.priority, prompt.origin]).toEqual([1, "Login form", "Add the form.", 2, "planner"]);
    const turns = await db.turn.findMany({ where: { threadId: thread.id }, orderBy: { seq: "asc" } });
    expect(turns.map((t) => [t.seq, t.actor, t.action, t.actorId, t.target, t.content])).toEqual([
      [1, "person", "message", "user:u", null, expect.stringContaining("Split login, please.")],
      [2, "lead", "route", run.id, `prompt:${prompt.id}`, "#1 Login form goes to the queue"],
      [3, "lead", "message", run.id, null, "Queued the login form."],
      [4, "lead", "message", run.id, null, "Done: 0 of 0 edits applied."],
    ]);
    const steps = await db.runLog.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
    expect(steps.map((s) => s.content).join("\n")).toContain("mcp__ringmaster__create_prompt");
  });
});
