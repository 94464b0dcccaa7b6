import { describe, expect, it } from "vitest";
import { exitVerdict } from "@/lib/agents/exit-verdict";

const pi = { name: "pi" };
const droid = { name: "droid", resultRequired: true };
const ok = { type: "result" as const, ok: true, summary: "Wrote hello.txt." };
const bad = { type: "result" as const, ok: false, summary: " 400 double says 400 " };

describe("exitVerdict", () => {
  it("fails a non-zero exit, with the CLI's failed result's words when it gave them", () => {
    expect(exitVerdict(pi, { exitCode: 1, signal: null, result: null })).toEqual({ error: "agent exited with 1", note: false });
    expect(exitVerdict(pi, { exitCode: 2, signal: null, result: bad })).toEqual({ error: "agent exited with 2: 400 double says 400", note: false });
    expect(exitVerdict(pi, { exitCode: 1, signal: null, result: ok })).toEqual({ error: "agent exited with 1", note: false });
    expect(exitVerdict(pi, { exitCode: null, signal: "SIGKILL", result: null })).toEqual({ error: "agent exited with SIGKILL", note: false });
  });

  it("fails an exit 0 behind a failed result, naming it in the log", () => {
    expect(exitVerdict(pi, { exitCode: 0, signal: null, result: bad })).toEqual({ error: "the agent reported a failure: 400 double says 400", note: true });
    expect(exitVerdict(pi, { exitCode: 0, signal: null, result: { type: "result", ok: false, summary: "  " } })).toEqual({ error: "the agent reported a failure: no reason given", note: true });
  });

  it("fails an exit 0 with no result line only for a CLI that always prints one", () => {
    expect(exitVerdict(droid, { exitCode: 0, signal: null, result: null })).toEqual({ error: "droid exited 0 without its final result line: the run did not finish", note: true });
    expect(exitVerdict(pi, { exitCode: 0, signal: null, result: null })).toBeNull();
    expect(exitVerdict(droid, { exitCode: 0, signal: null, result: ok })).toBeNull();
  });
});
