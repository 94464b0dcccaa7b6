import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { appendTurn } from "@/lib/threads/append";
import { ensurePromptThread } from "@/lib/threads/create";
import { markDelivered, markEvaluated, setTurnStatus } from "@/lib/threads/status";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { announced } from "./helpers/runs";

async function freshThread() {
  const { team, project } = await createTeamWithProject({ loopEnabled: false });
  const thread = await getDb().thread.create({ data: { projectId: project.id, title: "why did run 12 fail?" } });
  return { team, project, thread };
}

const statuses = async (threadId: string) =>
  (await getDb().turn.findMany({ where: { threadId }, orderBy: { seq: "asc" }, select: { seq: true, status: true } })).map((t) => `${t.seq}:${t.status}`);

describe("threads: turns and read receipts", () => {
  it("gives 20 concurrent turns the sequence numbers 1..20, each once", async () => {
    const { thread } = await freshThread();
    const turns = await Promise.all(Array.from({ length: 20 }, (_, i) => appendTurn(thread.id, { actor: "person", actorId: "user:u", text: `turn ${i}` })));
    expect(turns.map((t) => t!.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(turns.every((t) => t!.status === "sent")).toBe(true);
  });

  it("moves sent → delivered → evaluated with conditional updates that count, write once and announce once", async () => {
    const { team, thread } = await freshThread();
    for (const text of ["one", "two", "three"]) await appendTurn(thread.id, { actor: "person", text });
    expect(await markDelivered(thread.id, [1, 2])).toEqual({ count: 2, seqs: [1, 2] });
    const stamped = await getDb().turn.findUniqueOrThrow({ where: { threadId_seq: { threadId: thread.id, seq: 1 } } });
    // A repeat changes nothing: not even the delivered time moves.
    expect(await markDelivered(thread.id, [1, 2])).toEqual({ count: 0, seqs: [] });
    expect((await getDb().turn.findUniqueOrThrow({ where: { threadId_seq: { threadId: thread.id, seq: 1 } } })).deliveredAt).toEqual(stamped.deliveredAt);
    expect(await markDelivered(thread.id)).toEqual({ count: 1, seqs: [3] });
    expect(await statuses(thread.id)).toEqual(["1:delivered", "2:delivered", "3:delivered"]);
    expect(await markEvaluated(thread.id, [2])).toEqual({ count: 1, seqs: [2] });
    expect(await markEvaluated(thread.id, "all")).toEqual({ count: 2, seqs: [1, 3] });
    expect(await markEvaluated(thread.id, "all")).toEqual({ count: 0, seqs: [] });
    expect(await statuses(thread.id)).toEqual(["1:evaluated", "2:evaluated", "3:evaluated"]);

    const events = (await announced(team.id)).filter((e) => e.threadId === thread.id);
    expect(events.filter((e) => e.type === "threadChange").map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(events.filter((e) => e.type === "message_status").map((e) => [e.status, e.seqs])).toEqual([
      ["delivered", [1, 2]], ["delivered", [3]], ["evaluated", [2]], ["evaluated", "all"],
    ]);
  });

  it("lets one turn go forward (a routed turn) but never back", async () => {
    const { thread } = await freshThread();
    await appendTurn(thread.id, { actor: "lead", action: "route", text: "P3 goes to the executor", target: "prompt:P3" });
    expect(await setTurnStatus(thread.id, 1, "delivered")).toEqual({ count: 1, seqs: [1] });
    expect(await setTurnStatus(thread.id, 1, "delivered")).toEqual({ count: 0, seqs: [] });
    expect(await setTurnStatus(thread.id, 1, "evaluated")).toEqual({ count: 1, seqs: [1] });
    await expect(setTurnStatus(thread.id, 1, "delivered")).rejects.toMatchObject({ status: 409, field: "status" });
    await expect(setTurnStatus(thread.id, 1, "sent")).rejects.toMatchObject({ status: 409, field: "status" });
    await expect(setTurnStatus(thread.id, 9, "evaluated")).rejects.toMatchObject({ status: 404 });
    expect(await statuses(thread.id)).toEqual(["1:evaluated"]);
    expect((await getDb().turn.findFirstOrThrow({ where: { threadId: thread.id } })).target).toBe("prompt:P3");
  });

  it("refuses empty, oversized and NUL turns and any turn to a closed thread, writing nothing", async () => {
    const { thread } = await freshThread();
    for (const text of ["", "   ", "x".repeat(1_000_001), "a\u0000b"]) {
      await expect(appendTurn(thread.id, { actor: "person", text })).rejects.toMatchObject({ issues: [expect.objectContaining({ path: ["text"] })] });
    }
    await getDb().thread.update({ where: { id: thread.id }, data: { closedAt: new Date() } });
    await expect(appendTurn(thread.id, { actor: "person", text: "hello?" })).rejects.toMatchObject({ status: 409, field: "thread" });
    await expect(appendTurn("no-such-thread", { actor: "person", text: "hello?" })).rejects.toMatchObject({ status: 404 });
    expect(await getDb().turn.count({ where: { threadId: thread.id } })).toBe(0);
  });

  it("skips a monitor's confirm while its previous confirm in the thread is unevaluated", async () => {
    const { thread } = await freshThread();
    const confirm = (text: string) => appendTurn(thread.id, { actor: "monitor", actorId: "ci", action: "confirm", text }, { skipIfPending: true });
    expect((await confirm("CI is green"))?.seq).toBe(1);
    expect(await confirm("CI is green again")).toBeNull();
    await markDelivered(thread.id);
    expect(await confirm("CI is still green")).toBeNull();
    // Another monitor is not held back by the CI's pending confirm.
    expect((await appendTurn(thread.id, { actor: "monitor", actorId: "review", action: "confirm", text: "review arrived" }, { skipIfPending: true }))?.seq).toBe(2);
    await markEvaluated(thread.id, "all");
    expect((await confirm("CI went green after the fix"))?.seq).toBe(3);
  });

  it("sets and clears the wait for a person: the lead's wait turn parks, a person's turn releases", async () => {
    const { thread } = await freshThread();
    await appendTurn(thread.id, { actor: "lead", action: "wait", text: "Run 12 failed on a flaky test; retry it?" });
    expect((await getDb().thread.findUniqueOrThrow({ where: { id: thread.id } })).waitingForUser).toBe(true);
    await appendTurn(thread.id, { actor: "worker", actorId: "run-1", action: "progress", text: "still here" });
    expect((await getDb().thread.findUniqueOrThrow({ where: { id: thread.id } })).waitingForUser).toBe(true);
    await appendTurn(thread.id, { actor: "person", text: "yes, retry" });
    expect((await getDb().thread.findUniqueOrThrow({ where: { id: thread.id } })).waitingForUser).toBe(false);
  });

  it("opens exactly one thread per prompt, however many callers race", async () => {
    const { project } = await freshThread();
    const prompt = await addPrompt(project.id, { number: 1, title: "Add a login page", body: "" });
    const threads = await Promise.all(Array.from({ length: 8 }, () => ensurePromptThread(prompt)));
    expect(new Set(threads.map((t) => t.id)).size).toBe(1);
    expect(threads[0]).toMatchObject({ promptId: prompt.id, projectId: project.id, title: "Add a login page" });
  });
});
