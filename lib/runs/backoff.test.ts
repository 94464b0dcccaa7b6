import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { captureLogs } from "@/lib/log-capture";
import { POSTGRES_OUTAGE_MS, retryBackoffMs, retryWithBackoff, whenPostgresAnswers } from "@/lib/runs/backoff";

describe("retryBackoffMs", () => {
  it.each([[0, 1000], [1, 1000], [2, 2000], [3, 4000], [5, 16000], [6, 16000], [50, 16000]])("after %i failed attempts waits %i ms", (n, ms) => {
    expect(retryBackoffMs(1000, n)).toBe(ms);
  });

  it("gives a Postgres outage ten minutes", () => expect(POSTGRES_OUTAGE_MS).toBe(600_000));
});

// The waits run on fake timers: the test steps the clock, it never sleeps.
describe("retryWithBackoff", () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date("2031-01-01T00:00:00Z") }));
  afterEach(() => vi.useRealTimers());

  function flaky(failures: number, error = new Error("connection refused")) {
    const calls: number[] = [];
    const work = async () => {
      calls.push(Date.now());
      if (calls.length <= failures) throw error;
      return "done";
    };
    return { work, calls };
  }

  const hooks = () => {
    const heard: string[] = [];
    return { heard, onWait: (err: Error) => heard.push(`wait: ${err.message}`), onRecovered: () => heard.push("recovered") };
  };

  it("retries while allowed, waiting 200 ms doubling to 2 s, and tells the first wait and the recovery once", async () => {
    const { work, calls } = flaky(6);
    const h = hooks();
    const done = retryWithBackoff(work, { retry: () => true, giveUpAfterMs: 60_000, ...h });
    await vi.runAllTimersAsync();
    expect(await done).toBe("done");
    const start = new Date("2031-01-01T00:00:00Z").getTime();
    expect(calls.map((t) => t - start)).toEqual([0, 200, 600, 1400, 3000, 5000, 7000]);
    expect(h.heard).toEqual(["wait: connection refused", "recovered"]);
  });

  it("answers at once, telling nothing, when the first try succeeds", async () => {
    const h = hooks();
    expect(await retryWithBackoff(async () => 7, { retry: () => true, giveUpAfterMs: 1000, ...h })).toBe(7);
    expect(h.heard).toEqual([]);
  });

  it("throws at once an error it may not retry", async () => {
    const { work, calls } = flaky(1, new Error("syntax error"));
    const h = hooks();
    await expect(retryWithBackoff(work, { retry: (err) => (err as Error).message !== "syntax error", giveUpAfterMs: 60_000, ...h })).rejects.toThrow("syntax error");
    expect(calls).toHaveLength(1);
    expect(h.heard).toEqual([]);
  });

  it("gives up with the last error once the deadline has passed, not before", async () => {
    const { work, calls } = flaky(100);
    const h = hooks();
    const done = retryWithBackoff(work, { retry: () => true, giveUpAfterMs: 1400, ...h });
    const failed = expect(done).rejects.toThrow("connection refused");
    await vi.runAllTimersAsync();
    await failed;
    // Tries at 0, 200, 600, 1400 (not past the deadline yet), 3000 (past it: thrown).
    expect(calls).toHaveLength(5);
    expect(h.heard).toEqual(["wait: connection refused"]);
  });

  it("stops retrying once its signal is aborted", async () => {
    const { work, calls } = flaky(100);
    const controller = new AbortController();
    const done = retryWithBackoff(work, { retry: () => true, signal: controller.signal, giveUpAfterMs: 60_000, ...hooks() });
    const failed = expect(done).rejects.toThrow("connection refused");
    await vi.advanceTimersByTimeAsync(600);
    controller.abort();
    await vi.runAllTimersAsync();
    await failed;
    expect(calls).toHaveLength(4);
  });
});

describe("whenPostgresAnswers", () => {
  let lines: Array<Record<string, unknown>> = [];
  beforeEach(() => {
    lines = captureLogs();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  const said = () => lines.map(({ name, level, msg, runId, step, err }) => ({ name, level, msg, runId, step, err }));

  it("waits out an unreachable Postgres with the lease kept, saying so once when it waits and once when it goes on", async () => {
    let tries = 0;
    const done = whenPostgresAnswers(async () => {
      if (++tries < 3) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
      return "saved";
    }, { runId: "run-1", step: "complete" });
    await vi.runAllTimersAsync();
    expect(await done).toBe("saved");
    expect(tries).toBe(3);
    expect(said()).toEqual([
      { name: "runs", level: 40, msg: "run waits for Postgres (lease kept)", runId: "run-1", step: "complete", err: "connect ECONNREFUSED 127.0.0.1:5432" },
      { name: "runs", level: 30, msg: "run goes on: Postgres answers again", runId: "run-1", step: "complete", err: undefined },
    ]);
  });

  it("throws at once an error Postgres answered", async () => {
    const refused = Object.assign(new Error("duplicate key"), { code: "23505" });
    await expect(whenPostgresAnswers(async () => { throw refused; }, { runId: "run-2", step: "claim" })).rejects.toBe(refused);
    expect(said()).toEqual([]);
  });

  it("gives up when its signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const lost = Object.assign(new Error("Connection terminated unexpectedly"), {});
    await expect(whenPostgresAnswers(async () => { throw lost; }, { runId: "run-3", step: "log", signal: controller.signal })).rejects.toBe(lost);
  });
});
