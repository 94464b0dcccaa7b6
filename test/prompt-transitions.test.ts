import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { changePromptStatus, PROMPT_TRANSITIONS, PromptTransitionError } from "@/lib/prompts/transitions";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";

const row = (id: string) => getDb().prompt.findUniqueOrThrow({ where: { id }, select: { status: true, completedAt: true, attempts: true, branch: true } });

describe("a prompt's status has one owner (lib/prompts/transitions)", () => {
  it("refuses a change the table does not allow and writes nothing", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const prompt = await addPrompt(project.id, { number: 1, title: "finished", body: "" });
    await getDb().prompt.update({ where: { id: prompt.id }, data: { status: "done" } });
    const before = await row(prompt.id);
    await expect(changePromptStatus(prompt.id, { from: "done", to: "failed", data: { attempts: 7 } })).rejects.toThrow(PromptTransitionError);
    await expect(changePromptStatus(prompt.id, { from: ["in_progress", "done"], to: "cancelled" })).rejects.toThrow("a prompt cannot go from done to cancelled");
    expect(await row(prompt.id)).toEqual(before);
  });

  it("writes nothing for a legal change when the row is not in the expected status", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const prompt = await addPrompt(project.id, { number: 1, title: "waiting", body: "" });
    const before = await row(prompt.id);
    expect(await changePromptStatus(prompt.id, { from: "in_progress", to: "done", data: { branch: "x" } })).toBe(false);
    expect(await row(prompt.id)).toEqual(before);
    expect(before.status).toBe("pending");
  });

  it("makes a legal change once, with its data and completedAt, and a racing second one loses", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const prompt = await addPrompt(project.id, { number: 1, title: "raced", body: "" });
    const now = new Date("2026-11-23T05:00:00Z");
    const change = { from: "pending", to: "cancelled", data: { branch: "b" } } as const;
    const results = await Promise.all([1, 2, 3].map(() => changePromptStatus(prompt.id, change, getDb(), now)));
    expect(results.sort()).toEqual([false, false, true]);
    expect(await row(prompt.id)).toEqual({ status: "cancelled", completedAt: now, attempts: 0, branch: "b" });
    expect(await changePromptStatus(prompt.id, { from: "cancelled", to: "pending" })).toBe(true);
    expect((await row(prompt.id)).completedAt).toBeNull();
  });

  it("leaves done only to be redone (late work on a merged pull request)", () => {
    expect(PROMPT_TRANSITIONS.done).toEqual(["pending"]);
  });
});
