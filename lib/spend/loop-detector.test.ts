import { describe, expect, it } from "vitest";
import { describeCall, LoopDetector, normaliseInput, repeatedCallOf } from "@/lib/spend/loop-detector";

const call = (id: string, input: unknown, name = "Bash") => ({ type: "tool_use" as const, id, name, input });

describe("LoopDetector", () => {
  it("fires on the eighth identical call in a row", () => {
    const loops = new LoopDetector();
    for (let i = 1; i < 8; i++) expect(loops.observe(call(`t${i}`, { command: "ls  -la" }))).toBeNull();
    expect(loops.observe(call("t8", { command: "ls -la" }))).toBe('stopped: the agent repeated the same tool call 8 times in a row (Bash {"command":"ls -la"})');
  });

  it("does not fire on eight different calls, nor when a different call breaks the streak", () => {
    const loops = new LoopDetector();
    for (let i = 1; i <= 8; i++) expect(loops.observe(call(`t${i}`, { command: `ls ${i}` }))).toBeNull();
    for (let i = 1; i <= 7; i++) expect(loops.observe(call(`s${i}`, { command: "ls" }))).toBeNull();
    expect(loops.observe(call("x", { command: "ls" }, "Read"))).toBeNull();
    expect(loops.observe(call("y", { command: "ls" }))).toBeNull();
  });

  it("fires on the fifth failure of the same call with the same output, even with others between", () => {
    const loops = new LoopDetector();
    for (let i = 1; i <= 5; i++) {
      loops.observe(call(`m${i}`, { command: "make" }));
      const verdict = loops.observe({ type: "tool_result", toolUseId: `m${i}`, output: "error: no rule", isError: true });
      expect(verdict).toBe(i === 5 ? 'stopped: the agent repeated a failing call 5 times with the same output (Bash {"command":"make"})' : null);
      loops.observe(call(`o${i}`, { command: `cat file${i}` }));
    }
  });

  it("normalises key order and whitespace", () => {
    expect(normaliseInput({ b: 1, a: " x\n y " })).toBe(normaliseInput({ a: "x y", b: 1 }));
  });
});

describe("the repeated call on the run page", () => {
  it("names the same call the stop reason names, whatever the key order or spacing", () => {
    const loops = new LoopDetector({ repeatLimit: 2, failureLimit: 5 });
    loops.observe(call("a", { command: "ls  -la", cwd: "." }));
    const reason = loops.observe(call("b", { cwd: ".", command: "ls -la" }));
    expect(repeatedCallOf(reason)).toBe('Bash {"command":"ls -la","cwd":"."}');
    expect(describeCall("Bash", { cwd: ".", command: "ls   -la" })).toBe(repeatedCallOf(reason));
    expect(describeCall("Read", { cwd: ".", command: "ls -la" })).not.toBe(repeatedCallOf(reason));
  });

  it("finds none in any other reason", () => {
    expect(repeatedCallOf("stopped: cost $5.02 passed the run limit of $5.00")).toBeNull();
    expect(repeatedCallOf(null)).toBeNull();
  });
});

