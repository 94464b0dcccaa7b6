// An unsandboxed run's agent that starts a daemon detached into a session of its own (as Cline's
// hub daemon was): the run's end kills it, by the run id it still carries. Sandboxed, it would die
// with the run's pid namespace.
import { mkdtempSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { killMarked, markedProcesses } from "@/lib/agents/kill";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

// A worker without bubblewrap, whose operator allows unsandboxed opt-ins.
Object.assign(process.env, { SANDBOX_BWRAP: "/nonexistent/bwrap", SANDBOX_UNSANDBOXED_OPT_IN: "on" });

// The agent waits until the daemon has its session (it writes its pid then), so only the sweep can
// reach it. The pid goes outside the worktree, which the merge removes.
const pidFile = join(mkdtempSync(join(tmpdir(), "rm-daemon-")), "daemon.pid");
const DETACHING = `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 300' </dev/null >/dev/null 2>&1 & until [ -s ${pidFile} ]; do sleep 0.01; done; echo done`;

describe("an unsandboxed run whose agent detached a daemon", () => {
  it("leaves no process with its run id once it has ended", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const shell = await getDb().agentProfile.create({ data: { teamId: team.id, name: "detacher", adapter: "shell", commandTemplate: DETACHING } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: shell.id, unsandboxed: true } });
    await addPrompt(project.id, { number: 1, title: "Detach", body: "Start a daemon." });

    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    const daemon = Number(await readFile(pidFile, "utf8"));
    expect(daemon).toBeGreaterThan(0);
    const left = markedProcesses("RINGMASTER_RUN_ID", run!.id);
    killMarked("RINGMASTER_RUN_ID", run!.id);
    expect(left).toEqual([]);
  });
});
