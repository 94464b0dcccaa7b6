import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { appendTurn } from "@/lib/threads/append";
import { createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";

const workers: ReturnType<typeof startWorkerProcess>[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => stopWorkerProcess(w, "SIGKILL")));
});

describe("the lead agent with real worker processes and the demo agent", () => {
  it("one person's turn → one lead run → every turn evaluated and the answer posted → no further run", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const db = getDb();
    const thread = await db.thread.create({ data: { projectId: project.id, title: "why did run 12 fail?" } });
    // The burst lands before the loop first looks, so it is one unread batch for two workers.
    await Promise.all(Array.from({ length: 20 }, (_, i) => appendTurn(thread.id, { actor: "person", actorId: "user:u", text: `question ${i}` })));
    for (let i = 0; i < 2; i++) workers.push(startWorkerProcess());
    await Promise.all(workers.map((w) => waitForWorkers(w)));
    const answered = await waitUntil("the lead's answer", async () => {
      const lead = await db.turn.findFirst({ where: { threadId: thread.id, actor: "lead" } });
      return lead;
    }, 90_000).catch((err) => { throw new Error(`${err.message}\n${workers.map((w) => w.output()).join("\n")}`); });
    expect(answered.content).toMatch(/^Done: 0 of 0 edits applied\./);
    const runs = await db.run.findMany({ where: { threadId: thread.id } });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ kind: "lead", status: "succeeded", threadSeq: 20, commitSha: null });
    const people = await db.turn.findMany({ where: { threadId: thread.id, actor: "person" } });
    expect(people.every((t) => t.status === "evaluated")).toBe(true);

    // A worker's progress turn does not wake the lead; once the loop has delivered it (so it has
    // passed over the thread after the answer), still only the one run exists.
    const marker = await appendTurn(thread.id, { actor: "worker", actorId: "run-x", action: "progress", text: "unrelated progress" });
    await waitUntil("the loop to deliver the marker", async () =>
      (await db.turn.findUniqueOrThrow({ where: { id: marker!.id } })).status === "delivered", 30_000);
    await waitUntil("the lead's own answer delivered", async () =>
      (await db.turn.findUniqueOrThrow({ where: { id: answered.id } })).status === "delivered", 30_000);
    expect(await db.run.count({ where: { threadId: thread.id } })).toBe(1);
  });
});
