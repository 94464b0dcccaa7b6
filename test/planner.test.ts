import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { executeRun } from "@/lib/runs/execute";
import { createRunToken } from "@/lib/auth/tokens";
import { POST as postPrompt } from "@/app/api/projects/[id]/prompts/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";
import { params, request } from "./helpers/api";

async function withPlanner(teamId: string, projectId: string, commandTemplate: string) {
  const planner = await getDb().agentProfile.create({ data: { teamId, name: "planner", adapter: "shell", commandTemplate } });
  await getDb().projectSettings.update({ where: { projectId }, data: { plannerEnabled: true, plannerProfileId: planner.id } });
  return planner;
}

const plannedFile = [
  "mkdir -p .planning/main/prompts",
  "printf '%s\\n' '---' 'number: 1' 'title: Planned work' 'priority: 2' '---' '```file planned.txt' 'planned' '```' > .planning/main/prompts/01-planned-work.md",
].join(" && ");

describe("the hypothesis planner (seed 000)", () => {
  it("runs when the queue is empty; the prompt files it writes are imported and executed", async () => {
    const { team, project, repoPath } = await createTeamWithProject({ cooldownMs: 0 });
    await withPlanner(team.id, project.id, plannedFile);
    const planned = await tickAndRun(project.id);
    expect(planned.run!.kind).toBe("planner");
    expect(planned.run!.status).toBe("succeeded");
    expect(planned.run!.mergeStatus).toBe("merged");
    expect(existsSync(join(repoPath, ".planning/main/prompts/01-planned-work.md"))).toBe(true);

    const executed = await tickAndRun(project.id);
    expect(executed.run!.kind).toBe("executor");
    expect(executed.run!.prompt).toMatchObject({ number: 1, title: "Planned work", origin: "file", priority: 2, status: "done" });
    expect(existsSync(join(repoPath, "planned.txt"))).toBe(true);
  });

  it("backs off 10 s × 2^n after unproductive spawns, and a new pending prompt resets it", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 10_000 });
    await withPlanner(team.id, project.id, "true");
    const t0 = Date.now();
    const at = (s: number) => () => new Date(t0 + s * 1000);
    const spawnAndFinish = async (s: number) => {
      const r = await runTick(project.id, at(s));
      expect(r.skipped ? null : r.decision.kind).toBe("spawn_planner");
      const run = await getDb().run.findFirstOrThrow({ where: { projectId: project.id, status: "queued" } });
      await executeRun(run.id);
    };
    const decisionAt = async (s: number) => {
      const r = await runTick(project.id, at(s));
      return r.skipped ? null : r.decision;
    };
    await spawnAndFinish(0);
    expect(await decisionAt(15)).toMatchObject({ kind: "planner_backoff", message: "Emergent planner backoff: waiting 20s (1 unproductive spawn)" });
    await spawnAndFinish(21);
    expect((await decisionAt(50))?.message).toBe("Emergent planner backoff: waiting 40s (2 unproductive spawns)");
    await spawnAndFinish(62);
    expect((await decisionAt(100))?.message).toBe("Emergent planner backoff: waiting 80s (3 unproductive spawns)");
    const activity = (await getDb().activityEvent.findMany({ where: { projectId: project.id, type: "loopStatus" } })).map((a) => a.message);
    expect(activity).toContain("Emergent planner backoff: waiting 40s (2 unproductive spawns)");

    // A prompt from elsewhere (a rise in pending) resets the backoff: it is picked at once.
    await getDb().prompt.create({ data: { projectId: project.id, planningKey: "main", number: 1, title: "Human idea", body: "" } });
    expect((await decisionAt(101))!.kind).toBe("spawn_executor");
    expect((await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } })).emergentSpawnCount).toBe(0);
  });

  it("can add prompts through the API with its run token, scoped to its project", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const other = await createTeamWithProject({ loopEnabled: false });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { approvalPolicy: "planner" } });
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "planner", adapter: "shell", status: "running" } });
    const token = await createRunToken({ id: run.id, projectId: project.id, teamId: team.id }, 60_000);
    const res = await postPrompt(request("POST", `/api/projects/${project.id}/prompts`, token, { title: "From the planner" }), params(project.id));
    expect(res.status).toBe(201);
    expect((await res.json()).prompt).toMatchObject({ origin: "planner", approval: "pending" });
    const elsewhere = await postPrompt(request("POST", `/api/projects/${other.project.id}/prompts`, token, { title: "x" }), params(other.project.id));
    expect(elsewhere.status).toBe(404);
  });
});

describe("prompt files (seed 000's prompt-files check)", () => {
  it("imports valid files, reports a malformed one once by name and reason, and keeps the loop going", async () => {
    const { project, repoPath } = await createTeamWithProject({ loopEnabled: true, cooldownMs: 0 });
    const dir = join(repoPath, ".planning", "main", "prompts");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "01-good.md"), "---\nnumber: 1\ntitle: Good one\n---\n```file good.txt\ngood\n```\n");
    writeFileSync(join(dir, "02-bad.md"), "---\nnumber: 2\ntitle: Bad one\npriority: 9\n---\nbody\n");
    const first = await tickAndRun(project.id);
    expect(first.run!.prompt!.title).toBe("Good one");
    await runTick(project.id);
    const reports = await getDb().activityEvent.findMany({ where: { projectId: project.id, message: { contains: "02-bad.md" } } });
    expect(reports).toHaveLength(1);
    expect(reports[0].message).toBe("Prompt file skipped: 02-bad.md: priority must be an integer from 1 to 4 (got 9)");
    expect(await getDb().prompt.count({ where: { projectId: project.id } })).toBe(1);
  });
});
