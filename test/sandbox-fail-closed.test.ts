import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";

const finished = (promptId: string) => () => getDb().run.findFirst({ where: { promptId, finishedAt: { not: null } }, orderBy: { queuedAt: "desc" } });

describe("the sandbox fails closed", () => {
  it("a worker without bubblewrap says so at start and refuses runs, except where an admin opted into unsandboxed runs", async () => {
    const { project } = await createTeamWithProject({ cooldownMs: 0 });
    const worker = startWorkerProcess({ SANDBOX_BWRAP: "/nonexistent/bwrap", SANDBOX_UNSANDBOXED_OPT_IN: "on" });
    try {
      await waitForWorkers(worker);
      expect(worker.output()).toContain("agent sandbox UNAVAILABLE");
      expect(worker.output()).toContain("bubblewrap (/nonexistent/bwrap) is not installed");

      const refused = await addPrompt(project.id, { number: 1, title: "Refused", body: "```file a.txt\na\n```\n" });
      await enqueueTick(project.id, "test");
      const run = await waitUntil("the refused run", finished(refused.id));
      expect(run.status).toBe("failed");
      expect(run.error).toBe("refused: agents run only inside the sandbox, and bubblewrap (/nonexistent/bwrap) is not installed: apt-get install bubblewrap; an admin can opt this project into unsandboxed runs");

      await getDb().projectSettings.update({ where: { projectId: project.id }, data: { unsandboxed: true } });
      const allowed = await addPrompt(project.id, { number: 2, title: "Opted in", body: "```file b.txt\nb\n```\n" });
      await enqueueTick(project.id, "test");
      const ran = await waitUntil("the opted-in run", finished(allowed.id));
      expect(ran.status).toBe("succeeded");
      const log = (await getDb().runLog.findMany({ where: { runId: ran.id } })).map((l) => l.content).join("\n");
      expect(log).toContain("[ringmaster] WARNING: running UNSANDBOXED, as this project's admin chose (bubblewrap (/nonexistent/bwrap) is not installed: apt-get install bubblewrap)");
    } finally {
      await stopWorkerProcess(worker);
    }
  });

  it("a team admin's opt-in alone runs nothing unsandboxed: the operator must allow it", async () => {
    const { project } = await createTeamWithProject({ cooldownMs: 0 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { unsandboxed: true } });
    const worker = startWorkerProcess({ SANDBOX_BWRAP: "/nonexistent/bwrap" });
    try {
      await waitForWorkers(worker);
      const prompt = await addPrompt(project.id, { number: 1, title: "Opted in", body: "```file a.txt\na\n```\n" });
      await enqueueTick(project.id, "test");
      const run = await waitUntil("the refused run", finished(prompt.id));
      expect(run.status).toBe("failed");
      expect(run.error).toBe("refused: agents run only inside the sandbox, and bubblewrap (/nonexistent/bwrap) is not installed: apt-get install bubblewrap; this project opted into unsandboxed runs, but the operator has not allowed that (SANDBOX_UNSANDBOXED_OPT_IN=on)");
      expect(await getDb().runLog.count({ where: { runId: run.id, content: { contains: "UNSANDBOXED" } } })).toBe(0);
    } finally {
      await stopWorkerProcess(worker);
    }
  });

  it("the opt-in changes nothing where the sandbox works: the demo agent still runs confined, commits and merges", async () => {
    const { project, repoPath } = await createTeamWithProject({ cooldownMs: 0 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { unsandboxed: true } });
    await addPrompt(project.id, { number: 1, title: "Add a file", body: "```file hello.txt\nhello\n```\n" });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    expect(run!.mergeStatus).toBe("merged");
    const log = (await getDb().runLog.findMany({ where: { runId: run!.id } })).map((l) => l.content).join("\n");
    expect(log).not.toContain("UNSANDBOXED");
    expect(execFileSync("git", ["-C", repoPath, "show", "main:hello.txt"], { encoding: "utf8" })).toBe("hello\n");
  });
});
