import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { issueSecret } from "@/lib/auth/tokens";
import { GET as listThreads, POST as createThread } from "@/app/api/threads/route";
import { GET as getThread } from "@/app/api/threads/[id]/route";
import { POST as postTurn } from "@/app/api/threads/[id]/turns/route";
import { GET as getPromptThread } from "@/app/api/prompts/[id]/thread/route";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const say = (threadId: string, token: string, body: unknown) => postTurn(request("POST", `/api/threads/${threadId}/turns`, token, body), params(threadId));
const open = async (projectId: string, token: string, body: object = {}) =>
  createThread(request("POST", "/api/threads", token, { projectId, title: "split the login feature", ...body }), {});

describe("threads over HTTP", () => {
  it("opens a thread with a first turn, shows it with ✓ (sent), and lists it with its unevaluated count", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(team.id);
    const res = await open(project.id, token, { text: "why did run 12 fail?" });
    expect(res.status).toBe(201);
    const { thread } = await res.json();
    const second = await say(thread.id, token, { text: "  and run 13?  " });
    expect(second.status).toBe(201);
    expect((await second.json()).turn).toEqual({ seq: 2, status: "sent", actor: "person", content: "and run 13?" });
    const detail = await (await getThread(request("GET", `/api/threads/${thread.id}`, token), params(thread.id))).json();
    expect(detail.thread.turns.map((t: { seq: number; status: string; content: string }) => [t.seq, t.status, t.content]))
      .toEqual([[1, "sent", "why did run 12 fail?"], [2, "sent", "and run 13?"]]);
    const list = await (await listThreads(request("GET", `/api/threads?projectId=${project.id}`, token), {})).json();
    expect(list.threads).toHaveLength(1);
    expect(list.threads[0]).toMatchObject({ id: thread.id, title: "split the login feature", unevaluated: 2, lastTurn: { seq: 2 } });
  });

  it("answers 404 for another team's thread and for another project's thread to a project-scoped token", async () => {
    const a = await createTeamWithProject({ loopEnabled: false });
    const b = await createTeamWithProject({ loopEnabled: false });
    const { thread } = await (await open(a.project.id, await apiToken(a.team.id))).json();
    const other = await apiToken(b.team.id, "owner");
    expect((await getThread(request("GET", `/api/threads/${thread.id}`, other), params(thread.id))).status).toBe(404);
    expect((await say(thread.id, other, { text: "hi" })).status).toBe(404);
    const second = await getDb().project.create({ data: { teamId: a.team.id, name: "other", slug: "other", repoKind: "local", repoPath: "/nonexistent", baseBranch: "main" } });
    const scoped = await apiToken(a.team.id, "owner", second.id);
    expect((await getThread(request("GET", `/api/threads/${thread.id}`, scoped), params(thread.id))).status).toBe(404);
    expect((await say(thread.id, scoped, { text: "hi" })).status).toBe(404);
    expect((await (await listThreads(request("GET", "/api/threads", scoped), {})).json()).threads).toEqual([]);
    expect(await getDb().turn.count({ where: { threadId: thread.id } })).toBe(0);
  });

  it("refuses bad input with the field and a viewer's turn with 403, writing nothing", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(team.id);
    const { thread } = await (await open(project.id, token)).json();
    const cases: [unknown, number, string | undefined][] = [
      [{ text: "" }, 400, "text"], [{}, 400, "text"], [{ text: "x".repeat(1_048_577) }, 400, "text"],
      [{ text: "a\u0000b" }, 400, "text"], [{ text: 5 }, 400, "text"], ["not json", 400, "body"],
    ];
    for (const [body, status, field] of cases) {
      const res = await say(thread.id, token, body);
      expect([res.status, (await res.json()).error.field]).toEqual([status, field]);
    }
    expect((await say(thread.id, await apiToken(team.id, "viewer"), { text: "hi" })).status).toBe(403);
    expect((await open(project.id, token, { title: "" })).status).toBe(400);
    await getDb().thread.update({ where: { id: thread.id }, data: { closedAt: new Date() } });
    const closed = await say(thread.id, token, { text: "anyone?" });
    expect([closed.status, (await closed.json()).error.field]).toEqual([409, "thread"]);
    expect(await getDb().turn.count({ where: { threadId: thread.id } })).toBe(0);
  });

  it("writes a run's token as that worker, not as a person", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const { thread } = await (await open(project.id, await apiToken(team.id))).json();
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "executor", adapter: "demo", status: "running" } });
    const { token, prefix, tokenHash } = issueSecret("api");
    await getDb().apiToken.create({ data: { teamId: team.id, projectId: project.id, runId: run.id, role: "operator", name: "run", tokenHash, prefix } });
    expect((await (await say(thread.id, token, { text: "tests pass" })).json()).turn).toMatchObject({ actor: "worker" });
    expect((await getDb().turn.findFirstOrThrow({ where: { threadId: thread.id } })).actorId).toBe(run.id);
  });

  it("gives every prompt its thread on first read, the same one after", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(team.id, "viewer");
    const prompt = await addPrompt(project.id, { number: 1, title: "Add a login page", body: "" });
    const first = await (await getPromptThread(request("GET", `/api/prompts/${prompt.id}/thread`, token), params(prompt.id))).json();
    const again = await (await getPromptThread(request("GET", `/api/prompts/${prompt.id}/thread`, token), params(prompt.id))).json();
    expect(first.thread).toMatchObject({ promptId: prompt.id, title: "Add a login page", turns: [] });
    expect(again.thread.id).toBe(first.thread.id);
    const other = await createTeamWithProject({ loopEnabled: false });
    expect((await getPromptThread(request("GET", `/api/prompts/${prompt.id}/thread`, await apiToken(other.team.id)), params(prompt.id))).status).toBe(404);
  });
});
