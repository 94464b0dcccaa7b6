import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { announce } from "@/lib/events/publish";
import { getEventHub } from "@/lib/events/hub";
import { SseReader } from "@/lib/events/sse-parse";
import { runLogStreamKey, teamStreamKey } from "@/lib/events/streams";
import { GET as events } from "@/app/api/events/route";
import { GET as runLog } from "@/app/api/runs/[id]/log/route";
import { createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { apiToken, params } from "./helpers/api";

// Every XREAD this file's keys appear in, seen by Redis itself (MONITOR), with the
// address of the connection that sent it.
const reads: { source: string; keys: string[] }[] = [];
let monitor: Redis & { disconnect(): void };

beforeAll(async () => {
  const prefix = getEnv().REDIS_PREFIX;
  monitor = (await new Redis(getEnv().REDIS_URL).monitor()) as typeof monitor;
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    if (args[0]?.toLowerCase() !== "xread" || !args.some((a) => a.startsWith(`${prefix}:`))) return;
    const from = args.findIndex((a) => a.toUpperCase() === "STREAMS") + 1;
    const names = args.slice(from, from + (args.length - from) / 2);
    reads.push({ source, keys: names.filter((k) => !k.includes(":events:wake:")) });
  });
  monitor.on("monitor", (_time: string, args: string[]) => {
    if (args[0]?.toLowerCase() === "echo") synced.get(args[1])?.();
  });
});
afterAll(() => monitor.disconnect());

function open(res: Promise<Response>, abort: AbortController) {
  return res.then((r) => {
    expect(r.status).toBe(200);
    return { reader: new SseReader(r.body!), abort };
  });
}

const lastRead = () => reads[reads.length - 1];

// MONITOR streams every command of every test file sharing this Redis, so on a loaded machine it
// lags behind; a marker sent after the fact and seen by the monitor means it has caught up.
const synced = new Map<string, () => void>();
async function monitorCaughtUp() {
  const marker = `${getEnv().REDIS_PREFIX}:sync:${Math.random()}`;
  const seen = new Promise<void>((r) => synced.set(marker, r));
  await getRedisAdmin().echo(marker);
  await seen;
  synced.delete(marker);
}
const readsSettle = (what: string, check: () => boolean) =>
  waitUntil(what, async () => { await monitorCaughtUp(); return check(); }, 120_000);

describe("the shared stream subscriber", () => {
  it("reads every stream with listeners over one connection, however many clients, and drops keys as they leave", async () => {
    const a = await createTeamWithProject({ loopEnabled: false });
    const b = await createTeamWithProject({ loopEnabled: false });
    const run = await getDb().run.create({ data: { projectId: a.project.id, kind: "executor", adapter: "demo", status: "running" } });
    const tokenA = await apiToken(a.team.id, "viewer");
    const tokenB = await apiToken(b.team.id, "viewer");
    const connect = (url: string, token: string, run?: string) => {
      const abort = new AbortController();
      const req = new Request(`http://localhost${url}`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
      return open(run ? runLog(req, params(run)) : events(req, undefined), abort);
    };
    const clientsA = await Promise.all(Array.from({ length: 40 }, () => connect("/api/events", tokenA)));
    const clientsB = await Promise.all(Array.from({ length: 10 }, () => connect("/api/events", tokenB)));
    const logs = await Promise.all(Array.from({ length: 5 }, () => connect(`/api/runs/${run.id}/log`, tokenA, run.id)));
    await Promise.all([...clientsA, ...clientsB].map((c) => c.reader.take(1)));
    const sources = new Set(reads.map((r) => r.source));

    const id = await announce(a.team.id, { type: "activity", message: "to all of A" });
    const got = await Promise.all(clientsA.map((c) => c.reader.take(1)));
    expect(new Set(got.map(([e]) => e.id))).toEqual(new Set([id]));
    const all = { A: teamStreamKey(a.team.id), B: teamStreamKey(b.team.id), log: runLogStreamKey(run.id) };
    await readsSettle("a read of all three streams", () => lastRead()?.keys.length === 3);
    expect(new Set(lastRead().keys)).toEqual(new Set(Object.values(all)));
    expect(getEventHub().stats()).toEqual({ keys: expect.arrayContaining(Object.values(all)), listeners: 40 + 10 + 5 * 2 });

    // One connection did all the reading for 55 clients: the process's named reader.
    expect(new Set(reads.map((r) => r.source))).toEqual(sources);
    expect(sources.size).toBe(1);
    const [source] = sources;
    const clients = (await getRedisAdmin().client("LIST")) as string;
    const line = clients.split("\n").find((l) => l.includes(` addr=${source} `));
    expect(line).toMatch(/ name=ringmaster-reader /);

    // The log clients also follow team A's stream (a run's end is announced there).
    for (const c of logs) c.abort.abort();
    await readsSettle("the run log to be dropped", () => lastRead().keys.length === 2);
    expect(new Set(lastRead().keys)).toEqual(new Set([all.A, all.B]));
    for (const c of clientsA) c.abort.abort();
    await readsSettle("team A's stream to be dropped", () => lastRead().keys.length === 1);
    expect(lastRead().keys).toEqual([all.B]);
    for (const c of clientsB) c.abort.abort();
    await waitUntil("no streams left", async () => getEventHub().stats().keys.length === 0);
    await monitorCaughtUp();
    const readsWhenIdle = reads.length;
    await announce(b.team.id, { type: "activity", message: "nobody listens" });
    await new Promise((r) => setTimeout(r, 300));
    await monitorCaughtUp();
    expect(reads.length).toBe(readsWhenIdle);
  }, 300_000);

  it("subscribes nothing for a request that was aborted before its stream opened", async () => {
    const a = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(a.team.id, "viewer");
    const abort = new AbortController();
    abort.abort();
    const res = await events(new Request("http://localhost/api/events", { headers: { authorization: `Bearer ${token}` }, signal: abort.signal }), undefined);
    await res.body?.cancel().catch(() => {});
    expect(getEventHub().stats().keys).not.toContain(teamStreamKey(a.team.id));
  });
});

let admin: Redis | undefined;
function getRedisAdmin() {
  admin ??= new Redis(getEnv().REDIS_URL);
  return admin;
}
afterAll(() => admin?.disconnect());
