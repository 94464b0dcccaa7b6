import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { announce } from "@/lib/events/publish";
import { getEventHub } from "@/lib/events/hub";
import { SseReader } from "@/lib/events/sse-parse";
import { runLogStreamKey } from "@/lib/events/streams";
import { RunLogSink } from "@/lib/runs/log-sink";
import { getRedis } from "@/lib/redis/connections";
import { GET } from "@/app/api/runs/[id]/log/route";
import { createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { apiToken, params } from "./helpers/api";

function open(runId: string, token?: string, lastEventId?: string) {
  const abort = new AbortController();
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (lastEventId) headers["last-event-id"] = lastEventId;
  return { res: GET(new Request(`http://localhost/api/runs/${runId}/log`, { headers, signal: abort.signal }), params(runId)), abort };
}

async function connect(runId: string, token: string, lastEventId?: string) {
  const { res, abort } = open(runId, token, lastEventId);
  const r = await res;
  expect(r.status).toBe(200);
  return { reader: new SseReader(r.body!), abort };
}

/** Every line the client is sent until `end`, checking ids are the seqs in order. */
async function readToEnd(reader: SseReader, from = 0) {
  const lines: string[] = [];
  let seq = from;
  for (;;) {
    const m = await reader.next(15_000);
    if (!m || m.kind !== "event") throw new Error("stream closed before end");
    if (m.event === "end") return { lines, end: JSON.parse(m.data), endId: m.id, closed: (await reader.next(10_000)) === null };
    const chunk = JSON.parse(m.data);
    expect(m.id).toBe(String(chunk.seq));
    expect(chunk.seq).toBe(seq + 1);
    seq = chunk.seq;
    lines.push(...chunk.text.split("\n"));
  }
}

async function runningRun() {
  const fx = await createTeamWithProject({ loopEnabled: false });
  const run = await getDb().run.create({ data: { projectId: fx.project.id, kind: "executor", adapter: "demo", status: "running" } });
  return { ...fx, run, token: await apiToken(fx.team.id, "viewer") };
}

async function finish(run: { id: string }, teamId: string, projectId: string) {
  await getDb().run.update({ where: { id: run.id }, data: { status: "succeeded", finishedAt: new Date() } });
  await announce(teamId, { type: "taskCompleted", projectId, runId: run.id, message: "done" });
}

describe("GET /api/runs/[id]/log (a run's output over SSE)", () => {
  it("answers 401 without a token and 404 for another team's run or another project's token, before any stream", async () => {
    const { team, run } = await runningRun();
    const other = await createTeamWithProject({ loopEnabled: false });
    expect((await open(run.id).res).status).toBe(401);
    const foreign = await open(run.id, await apiToken(other.team.id, "owner")).res;
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: { code: "not_found", message: "run not found" } });
    const elsewhere = await getDb().project.update({ where: { id: other.project.id }, data: { teamId: team.id } });
    expect((await open(run.id, await apiToken(team.id, "owner", elsewhere.id)).res).status).toBe(404);
    expect((await open("no-such-run", await apiToken(team.id)).res).status).toBe(404);
    expect((await (await open(run.id, await apiToken(team.id), "x1").res).json()).error.field).toBe("Last-Event-ID");
    expect(getEventHub().stats().listeners).toBe(0);
  });

  it("hands over from the Postgres backlog to the live tail without gap or duplicate while the agent writes", async () => {
    const { team, project, run, token } = await runningRun();
    const sink = new RunLogSink(run.id);
    const total = 3_000;
    const clients: Promise<Awaited<ReturnType<typeof readToEnd>>>[] = [];
    const resumed: Promise<string[]>[] = [];
    for (let i = 0; i < total; i++) {
      sink.push(`line ${i}`);
      if (i % 50 === 49) await sink.flush();
      if (i % 10 === 9) await new Promise((r) => setImmediate(r));
      // Clients join at different points of the run, some while a flush is in flight.
      if (i % 600 === 300) clients.push(connect(run.id, token).then((c) => readToEnd(c.reader)));
      // The Redis stream is bounded: what it dropped must come from Postgres.
      if (i === 1_500) await getRedis("producer").xtrim(runLogStreamKey(run.id), "MAXLEN", 3);
      if (i === 1_000) resumed.push(resumeHalfway(run.id, token));
    }
    await sink.flush();
    clients.push(connect(run.id, token).then((c) => readToEnd(c.reader)));
    await finish(run, team.id, project.id);
    const expected = Array.from({ length: total }, (_, i) => `line ${i}`);
    const lastSeq = await getDb().runLog.count({ where: { runId: run.id } });
    for (const result of await Promise.all(clients)) {
      expect(result.lines).toEqual(expected);
      expect(result.end).toEqual({ status: "succeeded" });
      expect(result.endId).toBe(String(lastSeq));
      expect(result.closed).toBe(true);
    }
    expect(await Promise.all(resumed)).toEqual([expected]);
    await waitUntil("every listener to leave", async () => getEventHub().stats().listeners === 0);
  });

  it("fills a seq the stream skipped (its XADD failed) from Postgres", async () => {
    const { team, project, run, token } = await runningRun();
    const write = async (seq: number, content: string, toRedis: boolean) => {
      await getDb().runLog.create({ data: { runId: run.id, seq, content } });
      if (toRedis) await getRedis("producer").xadd(runLogStreamKey(run.id), "*", "seq", String(seq), "l", content);
    };
    await write(1, "a", true);
    const { reader } = await connect(run.id, token);
    expect((await reader.take(1)).map((e) => e.data)).toEqual([JSON.stringify({ seq: 1, text: "a" })]);
    await write(2, "b", false);
    await write(3, "c", true);
    expect((await reader.take(2)).map((e) => [e.id, JSON.parse(e.data).text])).toEqual([["2", "b"], ["3", "c"]]);
    await finish(run, team.id, project.id);
    expect(await reader.take(1)).toMatchObject([{ event: "end", id: "3", data: JSON.stringify({ status: "succeeded" }) }]);
  });

  it("sends a finished run's whole log then end, and only the rest after Last-Event-ID", async () => {
    const { run, token } = await runningRun();
    for (let seq = 1; seq <= 250; seq++) await getDb().runLog.create({ data: { runId: run.id, seq, content: `chunk ${seq}` } });
    await getDb().run.update({ where: { id: run.id }, data: { status: "failed" } });
    const whole = await readToEnd((await connect(run.id, token)).reader);
    expect(whole.lines).toEqual(Array.from({ length: 250 }, (_, i) => `chunk ${i + 1}`));
    expect([whole.end, whole.endId, whole.closed]).toEqual([{ status: "failed" }, "250", true]);
    const rest = await readToEnd((await connect(run.id, token, "247")).reader, 247);
    expect(rest.lines).toEqual(["chunk 248", "chunk 249", "chunk 250"]);
  });
});

/** A client that reads part of the log, goes away, and comes back with its last seq. */
async function resumeHalfway(runId: string, token: string): Promise<string[]> {
  const first = await connect(runId, token);
  const part = await first.reader.take(7, 15_000);
  first.abort.abort();
  const lines = part.flatMap((e) => JSON.parse(e.data).text.split("\n"));
  const lastSeq = part[part.length - 1].id!;
  const again = await connect(runId, token, lastSeq);
  return [...lines, ...(await readToEnd(again.reader, Number(lastSeq))).lines];
}
