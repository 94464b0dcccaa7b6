import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { claimPromptForRun } from "@/lib/runs/claim";
import { claimQueuedRun } from "@/lib/runs/claim-run";
import { addPrompt } from "./helpers/fixtures";
import { createBareProject } from "./helpers/runs";
import { statementsOf, verbOf } from "./helpers/statements";

const include = { project: { include: { settings: true } }, prompt: true, agentProfile: true } as const;

async function queuedRun(opts: { remote?: boolean } = {}) {
  const { project, profile } = await createBareProject();
  const prompt = await addPrompt(project.id, { number: 1, title: "one", body: "do it" });
  const claimed = await claimPromptForRun({ projectId: project.id, promptId: prompt.id, profile, routing: {}, now: new Date(), limits: { maxExecutors: 1, cooldownMs: 0 }, remote: opts.remote });
  return claimed!.run;
}

describe("a spawn worker's claim of a queued run", () => {
  it("takes it in one statement (starting, leased to this worker) and reads it with its project, settings, prompt and profile as Prisma does", async () => {
    const run = await queuedRun();
    const before = Date.now();
    const { result: claimed, statements } = await statementsOf(() => claimQueuedRun(run.id, "worker-x", 30_000));
    expect(statements.map(verbOf)).toEqual(["WITH"]);
    expect(claimed).toEqual(await getDb().run.findUniqueOrThrow({ where: { id: run.id }, include }));
    expect(claimed).toMatchObject({ id: run.id, status: "starting", workerId: "worker-x", prompt: { title: "one", body: "do it" }, agentProfile: { adapter: "demo" } });
    expect(claimed!.project.settings).toMatchObject({ projectId: run.projectId });
    expect(claimed!.queuedAt).toEqual(run.queuedAt);
    expect(claimed!.leaseExpiresAt!.getTime() - claimed!.heartbeatAt!.getTime()).toBe(30_000);
    expect(claimed!.heartbeatAt!.getTime()).toBeGreaterThanOrEqual(before);
  });

  it("takes nothing twice, and never a remote run (a runner pulls it)", async () => {
    const run = await queuedRun();
    expect(await claimQueuedRun(run.id, "worker-x", 30_000)).not.toBeNull();
    expect(await claimQueuedRun(run.id, "worker-y", 30_000)).toBeNull();
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "starting", workerId: "worker-x" });
    const remote = await queuedRun({ remote: true });
    expect(await claimQueuedRun(remote.id, "worker-x", 30_000)).toBeNull();
    expect(await getDb().run.findUniqueOrThrow({ where: { id: remote.id } })).toMatchObject({ status: "queued", workerId: null });
    expect(await claimQueuedRun("no-such-run", "worker-x", 30_000)).toBeNull();
  });

  it("reads a run without a prompt or profile as null ones", async () => {
    const { project } = await createBareProject();
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "planner", adapter: "demo" } });
    const claimed = await claimQueuedRun(run.id, "worker-x", 30_000);
    expect(claimed).toMatchObject({ id: run.id, prompt: null, agentProfile: null, project: { id: project.id } });
  });
});
