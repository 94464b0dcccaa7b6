import { describe, expect, it } from "vitest";
import { announce } from "@/lib/events/publish";
import { getEventHub } from "@/lib/events/hub";
import { teamFeedResponse } from "@/lib/events/team-feed";
import { SseReader } from "@/lib/events/sse-parse";
import { teamStreamKey } from "@/lib/events/streams";
import { getRedis } from "@/lib/redis/connections";
import { GET } from "@/app/api/events/route";
import { createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { apiToken } from "./helpers/api";

function open(path: string, token?: string, lastEventId?: string) {
  const abort = new AbortController();
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (lastEventId) headers["last-event-id"] = lastEventId;
  const res = GET(new Request(`http://localhost${path}`, { headers, signal: abort.signal }), undefined);
  return { res, abort };
}

async function connect(path: string, token: string, lastEventId?: string) {
  const { res, abort } = open(path, token, lastEventId);
  const r = await res;
  expect(r.status).toBe(200);
  return { reader: new SseReader(r.body!), abort, res: r };
}

const messages = (events: { data: string }[]) => events.map((e) => JSON.parse(e.data).message as string);
/** The id of the team stream's newest entry (the project's creation is announced), "0-0" when empty. */
const newestId = async (teamId: string) => (await getRedis("producer").xrevrange(teamStreamKey(teamId), "+", "-", "COUNT", 1))[0]?.[0] ?? "0-0";

describe("GET /api/events (team stream over SSE)", () => {
  it("answers 401, 404 and 400 as JSON before any stream opens", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const other = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(team.id, "viewer");

    const anon = await open("/api/events").res;
    expect(anon.status).toBe(401);
    expect(anon.headers.get("content-type")).toMatch(/application\/json/);
    expect((await anon.json()).error.code).toBe("unauthenticated");

    const foreign = await open(`/api/events?projectId=${other.project.id}`, token).res;
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: { code: "not_found", message: "project not found" } });

    const scoped = await apiToken(team.id, "viewer", project.id);
    expect((await open(`/api/events?projectId=${other.project.id}`, scoped).res).status).toBe(404);

    const bad = await open("/api/events", token, "yesterday").res;
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("Last-Event-ID");
    const badQuery = await open("/api/events?lastEventId=12", token).res;
    expect((await badQuery.json()).error.field).toBe("lastEventId");
    expect(getEventHub().stats().listeners).toBe(0);
  });

  it("sends the SSE headers, a ready event with an id, then every event with its stream id", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const { reader, abort, res } = await connect("/api/events", await apiToken(team.id, "viewer"));
    expect(Object.fromEntries(["content-type", "cache-control", "x-accel-buffering", "connection"].map((h) => [h, res.headers.get(h)]))).toEqual({
      "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no", connection: "keep-alive",
    });
    const [ready] = await reader.take(1);
    expect(ready).toMatchObject({ event: "ready", id: await newestId(team.id) });
    const id = await announce(team.id, { type: "promptsChange", projectId: project.id, message: "hello" });
    const [event] = await reader.take(1);
    expect(event).toMatchObject({ event: "message", id });
    expect(JSON.parse(event.data)).toEqual({ id, type: "promptsChange", projectId: project.id, message: "hello" });
    abort.abort();
    await waitUntil("the listener to leave", async () => getEventHub().stats().listeners === 0);
    expect(getEventHub().stats().keys).toEqual([]);
  });

  it("resumes from Last-Event-ID (header or query) with nothing lost or repeated while events keep coming", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(team.id, "viewer");
    const total = 300;
    const first = await connect("/api/events", token);
    expect((await first.reader.take(1))[0].event).toBe("ready");

    let published = 0;
    const publisher = (async () => {
      for (; published < total; published++) {
        await announce(team.id, { type: "activity", message: `m${published}` });
        if (published % 7 === 0) await new Promise((r) => setTimeout(r, 2));
      }
    })();

    const seen: string[] = [];
    let current = first;
    let lastId = "";
    for (let round = 0; seen.length < total; round++) {
      const batch = await current.reader.take(Math.min(total - seen.length, 1 + ((round * 37) % 45)), 10_000);
      expect(batch.every((e) => e.event === "message")).toBe(true);
      seen.push(...messages(batch));
      lastId = batch[batch.length - 1].id!;
      if (seen.length === total) break;
      current.abort.abort();
      await current.reader.cancel();
      // Alternate the two ways a client names its last event.
      current = round % 2
        ? await connect(`/api/events?lastEventId=${lastId}`, token)
        : await connect("/api/events", token, lastId);
    }
    await publisher;
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => `m${i}`));
    // Nothing after the last one either.
    const next = await announce(team.id, { type: "activity", message: "after" });
    const [after] = await current.reader.take(1);
    expect([after.id, JSON.parse(after.data).message]).toEqual([next, "after"]);
    current.abort.abort();
  });

  it("says reset when the stream no longer holds what came after the client's id", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(team.id, "viewer");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await announce(team.id, { type: "activity", message: `m${i}` }))!);
    await getRedis("producer").xtrim(teamStreamKey(team.id), "MAXLEN", 2);

    const stale = await connect("/api/events", token, ids[0]);
    const [reset] = await stale.reader.take(1);
    expect(reset).toMatchObject({ event: "reset", id: ids[4] });
    stale.abort.abort();

    const fine = await connect("/api/events", token, ids[3]);
    const [m4] = await fine.reader.take(1);
    expect([m4.id, JSON.parse(m4.data).message]).toEqual([ids[4], "m4"]);
    fine.abort.abort();
  });

  it("filters by project on the server, and keeps a project-scoped token to its project", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const { project: second } = await createTeamWithProject({ loopEnabled: false });
    await import("@/lib/db").then(({ getDb }) => getDb().project.update({ where: { id: second.id }, data: { teamId: team.id } }));
    const byQuery = await connect(`/api/events?projectId=${project.id}`, await apiToken(team.id, "viewer"));
    const byToken = await connect("/api/events", await apiToken(team.id, "viewer", project.id));
    await Promise.all([byQuery.reader.take(1), byToken.reader.take(1)]);
    await announce(team.id, { type: "runChange", projectId: second.id, message: "other" });
    await announce(team.id, { type: "projectChange", message: "team-wide" });
    await announce(team.id, { type: "runChange", projectId: project.id, message: "mine" });
    expect(messages(await byQuery.reader.take(1))).toEqual(["mine"]);
    expect(messages(await byToken.reader.take(1))).toEqual(["mine"]);
    byQuery.abort.abort();
    byToken.abort.abort();
  });

  it("sends a keepalive comment per interval of the injected clock, and stops when the client leaves", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const sleeps: { ms: number; wake: () => void }[] = [];
    const abort = new AbortController();
    const res = teamFeedResponse({
      teamId: team.id, signal: abort.signal, keepaliveMs: 15_000, now: () => 1_234,
      sleep: (ms, signal) => new Promise<void>((wake) => { sleeps.push({ ms, wake }); signal.addEventListener("abort", () => wake()); }),
    });
    const reader = new SseReader(res.body!);
    expect(await reader.next(2_000, true)).toEqual({ kind: "event", id: await newestId(team.id), event: "ready", data: "{}" });
    await expect(reader.next(100, true)).rejects.toThrow(/no server-sent event/);
    expect(sleeps.map((s) => s.ms)).toEqual([15_000]);
    sleeps[0].wake();
    expect(await reader.next(1_000, true)).toEqual({ kind: "comment", text: "keepalive 1234" });
    await waitUntil("the next keepalive to be scheduled", async () => sleeps.length === 2);
    sleeps[1].wake();
    expect(await reader.next(1_000, true)).toEqual({ kind: "comment", text: "keepalive 1234" });
    abort.abort();
    expect(await reader.next(1_000, true)).toBeNull();
    expect(sleeps.length).toBe(3);
    await waitUntil("the listener to leave", async () => getEventHub().stats().listeners === 0);
  });
});
