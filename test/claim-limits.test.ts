import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { claimPromptForRun, createPromptlessRun } from "@/lib/runs/claim";
import { addPrompt } from "./helpers/fixtures";
import { createBareProject, loopStateOf } from "./helpers/runs";

const now = new Date("2026-11-23T12:00:00.000Z");
const open = { maxExecutors: 1, cooldownMs: 10_000 };

async function projectWithPrompt() {
  const fixture = await createBareProject();
  const prompt = await addPrompt(fixture.project.id, { number: 1, title: "one", body: "" });
  const claim = (limits = open, at = now) =>
    claimPromptForRun({ projectId: fixture.project.id, promptId: prompt.id, profile: fixture.profile, routing: {}, now: at, limits });
  return { ...fixture, prompt, claim };
}

const projectProfile = async (projectId: string) =>
  getDb().agentProfile.findUniqueOrThrow({ where: { id: (await getDb().projectSettings.findUniqueOrThrow({ where: { projectId } })).executorProfileId! } });

const runOf = (projectId: string, kind: "executor" | "planner" | "reviewer_fix" | "architect" | "reflector", status: "running" | "succeeded" | "queued", profileId: string) =>
  getDb().run.create({ data: { projectId, kind, status, adapter: "demo", agentProfileId: profileId } });

describe("a claim's slot check (invariant 2)", () => {
  it("claims into a free slot: the prompt in progress, a queued executor run, the spawn time recorded", async () => {
    const { project, prompt, profile, claim } = await projectWithPrompt();
    const claimed = await claim();
    expect(claimed!.run).toMatchObject({ projectId: project.id, promptId: prompt.id, kind: "executor", status: "queued", attempt: 1, agentProfileId: profile.id, adapter: "demo", model: null });
    expect(claimed!.prompt).toMatchObject({ id: prompt.id, status: "in_progress", attempts: 0 });
    expect((await loopStateOf(project.id)).lastSpawnAt).toEqual(now);
    expect(await claim()).toBeNull();
  });

  it("gives a pinned prompt's run to its agent, remote whatever the caller asked; an unpinned one stays as asked", async () => {
    const { project, team, prompt, claim } = await projectWithPrompt();
    const agent = await getDb().agent.create({ data: { teamId: team.id, name: "backend", lastSeenAt: now } });
    await getDb().prompt.update({ where: { id: prompt.id }, data: { pinnedAgentId: agent.id } });
    expect((await claim())!.run).toMatchObject({ remote: true, remoteAgentId: agent.id, status: "queued" });
    const other = await addPrompt(project.id, { number: 2, title: "two", body: "" });
    const local = await claimPromptForRun({ projectId: project.id, promptId: other.id, profile: (await projectProfile(project.id)), routing: {}, now, limits: { maxExecutors: 5, cooldownMs: 0 } });
    expect(local!.run).toMatchObject({ remote: false, remoteAgentId: null });
  });

  it("waits out the cooldown exactly: refused just inside it, allowed when it has passed", async () => {
    const { project, claim } = await projectWithPrompt();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { lastSpawnAt: new Date(now.getTime() - 9_999) } });
    expect(await claim()).toBeNull();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { lastSpawnAt: new Date(now.getTime() - 10_000) } });
    expect(await claim()).not.toBeNull();
  });

  it("a cooldown of 0 holds nothing, even after a racing claim stamped a later instant than this one's clock", async () => {
    const { project, claim } = await projectWithPrompt();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { lastSpawnAt: new Date(now.getTime() + 50) } });
    expect(await claim({ maxExecutors: 2, cooldownMs: 0 })).not.toBeNull();
  });

  it("counts only live executor and planner runs against the slots; a live planner blocks executors", async () => {
    const { project, profile, claim } = await projectWithPrompt();
    await runOf(project.id, "executor", "succeeded", profile.id);
    await runOf(project.id, "reviewer_fix", "running", profile.id);
    const planner = await runOf(project.id, "planner", "queued", profile.id);
    expect(await claim({ maxExecutors: 5, cooldownMs: 0 })).toBeNull();
    await getDb().run.update({ where: { id: planner.id }, data: { status: "succeeded" } });
    expect(await claim()).not.toBeNull();
  });

  it.each(["architect", "reflector"] as const)("a live campaign %s run holds the planner's slot: no executor starts beside it", async (kind) => {
    const { project, profile, claim } = await projectWithPrompt();
    const run = await runOf(project.id, kind, "running", profile.id);
    expect(await claim({ maxExecutors: 5, cooldownMs: 0 })).toBeNull();
    await getDb().run.update({ where: { id: run.id }, data: { status: "succeeded" } });
    expect(await claim({ maxExecutors: 5, cooldownMs: 0 })).not.toBeNull();
  });

  it("fills executor slots up to the limit and not past it", async () => {
    const { project, profile, claim } = await projectWithPrompt();
    await runOf(project.id, "executor", "running", profile.id);
    expect(await claim({ maxExecutors: 1, cooldownMs: 0 })).toBeNull();
    expect(await claim({ maxExecutors: 2, cooldownMs: 0 })).not.toBeNull();
  });

  it("claims nothing for a project without loop state, or a prompt that is not pending or of another project", async () => {
    const { project, profile, prompt, claim } = await projectWithPrompt();
    const other = await createBareProject();
    expect(await claimPromptForRun({ projectId: other.project.id, promptId: prompt.id, profile, routing: {}, now, limits: open })).toBeNull();
    await getDb().loopState.delete({ where: { projectId: project.id } });
    expect(await claim()).toBeNull();
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("pending");
    expect(await getDb().run.count({ where: { promptId: prompt.id } })).toBe(0);
  });
});

describe("a run without a prompt (the planner)", () => {
  it("takes a slot, records the spawn with the planner's loop state, and respects the same limits", async () => {
    const { project, profile } = await createBareProject();
    const withModel = { ...profile, model: "planner-model", fallbackModel: null };
    const input = { projectId: project.id, kind: "planner" as const, profile: withModel, now, loopState: { emergentSpawnCount: 2 }, limits: open };
    const run = await createPromptlessRun(input);
    expect(run).toMatchObject({ projectId: project.id, promptId: null, kind: "planner", status: "queued", agentProfileId: profile.id, adapter: "demo", model: "planner-model" });
    expect(await loopStateOf(project.id)).toMatchObject({ lastSpawnAt: now, emergentSpawnCount: 2 });
    expect(await createPromptlessRun({ ...input, now: new Date(now.getTime() + 60_000) })).toBeNull();
    expect(await getDb().run.count({ where: { projectId: project.id } })).toBe(1);
  });

  it("records the campaign of an architect run; a live one keeps a second promptless run out", async () => {
    const { project, profile } = await createBareProject();
    const campaign = await getDb().campaign.create({ data: { projectId: project.id, title: "c", goal: "g" } });
    const input = { projectId: project.id, kind: "architect" as const, profile, now, loopState: {}, limits: { maxExecutors: 1, cooldownMs: 0 }, campaignId: campaign.id };
    expect(await createPromptlessRun(input)).toMatchObject({ kind: "architect", campaignId: campaign.id, status: "queued" });
    expect(await createPromptlessRun({ ...input, kind: "reflector" })).toBeNull();
  });
});
