import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";

const workers: ReturnType<typeof startWorkerProcess>[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => stopWorkerProcess(w, "SIGKILL")));
});

// Every prompt appends its own line to the same file: two runs from the same base always conflict.
const appendLine = (letter: string) => `sleep 200\n\n\`\`\`append log.txt\n${letter}\n\`\`\`\n`;

// Created A..F (numbers 1..6); priority-then-FIFO puts them F (P1), C, D (P2), A, E (P3), B (P4).
const PROMPTS = [
  { letter: "A", priority: 3 }, { letter: "B", priority: 4 }, { letter: "C", priority: 2 },
  { letter: "D", priority: 2 }, { letter: "E", priority: 3 }, { letter: "F", priority: 1 },
];

describe("Parallel off: each run starts from a base that holds every earlier merge", () => {
  it("six prompts appending to one file take six runs and merge in priority-then-FIFO order, without a conflict", async () => {
    const { project, repoPath } = await createTeamWithProject({ maxParallel: 3 });
    const db = getDb();
    await db.projectSettings.update({ where: { projectId: project.id }, data: { parallelEnabled: false } });
    for (const [i, p] of PROMPTS.entries()) {
      await addPrompt(project.id, { number: i + 1, title: `append ${p.letter}`, body: appendLine(p.letter), priority: p.priority });
    }

    const worker = startWorkerProcess();
    workers.push(worker);
    await waitForWorkers(worker);
    await enqueueTick(project.id, "test start");

    await waitUntil("every prompt done and every run merged", async () => {
      const prompts = await db.prompt.findMany({ where: { projectId: project.id } });
      const runs = await db.run.findMany({ where: { projectId: project.id } });
      return prompts.every((p) => p.status === "done") && runs.every((r) => r.mergeStatus === "merged");
    }, 150_000).catch((err) => { throw new Error(`${err.message}\n${worker.output()}`); });

    const runs = await db.run.findMany({ where: { projectId: project.id }, include: { prompt: true }, orderBy: { queuedAt: "asc" } });
    const letterOf = (number: number) => PROMPTS[number - 1].letter;
    expect(runs.map((r) => letterOf(r.prompt!.number))).toEqual(["F", "C", "D", "A", "E", "B"]);
    expect(runs.map((r) => [r.status, r.mergeStatus])).toEqual(Array(6).fill(["succeeded", "merged"]));
    const prompts = await db.prompt.findMany({ where: { projectId: project.id } });
    expect(prompts.map((p) => p.attempts)).toEqual([0, 0, 0, 0, 0, 0]);

    // The file on the base branch holds the lines in merge order, and the commits landed in that order.
    const content = execFileSync("git", ["show", "main:log.txt"], { cwd: repoPath }).toString();
    expect(content.trim().split("\n")).toEqual(["F", "C", "D", "A", "E", "B"]);
    const subjects = execFileSync("git", ["log", "--reverse", "--format=%s", "main"], { cwd: repoPath }).toString();
    const order = subjects.split("\n").flatMap((s) => PROMPTS.filter((p) => s.includes(`append ${p.letter}`)).map((p) => p.letter));
    expect(order).toEqual(["F", "C", "D", "A", "E", "B"]);
  }, 180_000);
});
