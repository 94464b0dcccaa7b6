import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { SseReader } from "@/lib/events/sse-parse";
import { RUN_LOG_CAP_BYTES } from "@/lib/runs/log-sink";
import { GET } from "@/app/api/runs/[id]/log/route";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params } from "./helpers/api";
import { tickAndRun } from "./helpers/run-once";

const LINE = "flood 0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz";
const MARKER = `[ringmaster] output cut here: the log reached its ${RUN_LOG_CAP_BYTES} byte cap`;

async function readToEnd(runId: string, token: string) {
  const res = await GET(new Request(`http://localhost/api/runs/${runId}/log`, { headers: { authorization: `Bearer ${token}` } }), params(runId));
  expect(res.status).toBe(200);
  const reader = new SseReader(res.body!);
  const lines: string[] = [];
  let events = 0;
  for (;;) {
    const m = await reader.next(30_000);
    if (!m || m.kind !== "event") throw new Error("stream closed before end");
    if (m.event === "end") return { lines, events, end: JSON.parse(m.data) };
    events++;
    lines.push(...JSON.parse(m.data).text.split("\n"));
  }
}

describe("an agent that floods its output", () => {
  it("keeps a capped log with a marker, written in a bounded number of chunks, and the run page reads it to the end", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: true });
    // 20 MB of output, four times the log's cap, plus one 3 MB line without a newline at the end.
    const command = `yes ${LINE} | head -c 20000000; head -c 3000000 /dev/zero | tr '\\0' x`;
    const profile = await getDb().agentProfile.create({ data: { teamId: team.id, name: "flood", adapter: "shell", commandTemplate: command } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id } });
    await addPrompt(project.id, { number: 1, title: "Flood", body: "" });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");

    const rows = await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } });
    const stored = rows.map((r) => r.content).join("\n").split("\n");
    expect(stored.at(-1)).toBe(MARKER);
    expect(stored.slice(0, -1).every((l) => l === LINE)).toBe(true);
    const kept = stored.length - 1;
    // Every whole line that fits under the cap is kept, not one more.
    expect(kept).toBe(Math.floor(RUN_LOG_CAP_BYTES / (LINE.length + 1)));
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run!.id } })).toMatchObject({ logTruncated: true, logBytes: kept * (LINE.length + 1) });
    // Batched: ~66,000 lines in chunks of up to 64 KB, not a write per line (each chunk ≥ 1 line).
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.length).toBeLessThan(kept / 100);

    const read = await readToEnd(run!.id, await apiToken(team.id, "viewer"));
    expect(read.lines).toEqual(stored);
    expect(read.events).toBe(rows.length);
    expect(read.end).toEqual({ status: "succeeded" });
  });
});
