import { describe, expect, it } from "vitest";
import { parseCodexLine } from "@/lib/agents/codex";
import { parseGeminiLine } from "@/lib/agents/gemini";
import { readTranscript } from "@/lib/agents/testing";
import type { AgentEvent } from "@/lib/agents/types";
import { refusal, runCeilings } from "@/lib/spend/ceilings";
import { RunMeter } from "@/lib/spend/meter";

const none = { maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null };
const usage = (messageId: string, inputTokens: number, outputTokens: number, model = "claude-sonnet-4-5"): AgentEvent =>
  ({ type: "usage", messageId, model, inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });
const tool = (id: string): AgentEvent => ({ type: "tool_use", id, name: "Bash", input: { command: id } });

describe("RunMeter", () => {
  it("gives the ledger one line per call, updated in place, and a result line with only what the CLI's total adds", () => {
    const meter = new RunMeter(none, "claude-sonnet-4-5");
    const see = (e: AgentEvent) => (meter.observe(e), meter.linesChangedBy(e));
    expect(see(usage("m1", 1000, 10))).toEqual([{ key: "m1", model: "claude-sonnet-4-5", inputTokens: 1000, cachedTokens: 0, cacheWriteTokens: 0, outputTokens: 10, costUsd: 0.00315 }]);
    expect(see(usage("m1", 1000, 400))).toEqual([{ key: "m1", model: "claude-sonnet-4-5", inputTokens: 1000, cachedTokens: 0, cacheWriteTokens: 0, outputTokens: 400, costUsd: 0.009 }]);
    expect(see(tool("t1"))).toEqual([]);
    const result: AgentEvent = { type: "result", ok: true, inputTokens: 3000, outputTokens: 400, costUsd: 0.05 };
    expect(see(result)).toEqual([{ key: "result", model: "claude-sonnet-4-5", inputTokens: 2000, cachedTokens: 0, cacheWriteTokens: 0, outputTokens: 0, costUsd: 0.041 }]);
    // The lines add up to the run's totals.
    expect(meter.totals).toMatchObject({ inputTokens: 3000, outputTokens: 400, costUsd: 0.05 });
  });

  it("names the budget when the cost limit is the budget's share", () => {
    const meter = new RunMeter({ ...none, maxCostUsd: 0.1 }, "claude-sonnet-4-5", "the budget left for this run");
    expect(meter.observe(usage("m1", 40_000, 0))).toBe("stopped: cost $0.12 passed the budget left for this run of $0.10");
  });

  it("stops on the event that passes the cost ceiling, naming both amounts", () => {
    const meter = new RunMeter({ ...none, maxCostUsd: 5 });
    expect(meter.observe(usage("m1", 1_000_000, 100_000))).toBeNull();
    expect(meter.observe(usage("m2", 100_000, 10_000))).toBeNull();
    expect(meter.observe(usage("m3", 50_000, 0))).toBe("stopped: cost $5.10 passed the run limit of $5.00");
  });

  it("counts a message's usage once however many of its lines carry it", () => {
    const meter = new RunMeter({ ...none, maxTokens: 1500 });
    expect(meter.observe(usage("m1", 1000, 10))).toBeNull();
    expect(meter.observe(usage("m1", 1000, 400))).toBeNull();
    expect(meter.totals).toEqual({ inputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 400, costUsd: 0.009, toolCalls: 0 });
    expect(meter.observe(usage("m2", 100, 1))).toBe("stopped: tokens 1,501 passed the run limit of 1,500");
  });

  it("counts tool calls once per id and stops past the limit", () => {
    const meter = new RunMeter({ ...none, maxToolCalls: 2 });
    expect(meter.observe(tool("a"))).toBeNull();
    expect(meter.observe(tool("a"))).toBeNull();
    expect(meter.observe(tool("b"))).toBeNull();
    expect(meter.observe(tool("c"))).toBe("stopped: tool calls 3 passed the run limit of 2");
  });

  it("trusts the CLI's final totals when they are higher, pricing tokens without a cost", () => {
    const meter = new RunMeter({ ...none, maxCostUsd: 1 }, "gpt-5");
    expect(meter.observe(usage("m1", 100_000, 10_000, "gpt-5"))).toBeNull();
    // 400k × $1.25 + 60k × $10 per million
    expect(meter.observe({ type: "result", ok: true, inputTokens: 400_000, outputTokens: 60_000 })).toBe("stopped: cost $1.10 passed the run limit of $1.00");
    expect(meter.totals).toEqual({ inputTokens: 400_000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 60_000, costUsd: 1.1, toolCalls: 0 });
  });

  it("counts each model call as one turn, however many lines carry it, and stops past the limit", () => {
    const meter = new RunMeter({ ...none, maxTurns: 2 });
    expect(meter.observe(usage("m1", 10, 1))).toBeNull();
    expect(meter.observe(usage("m1", 10, 5))).toBeNull();
    expect(meter.observe(tool("a"))).toBeNull();
    expect(meter.observe(usage("m2", 10, 1))).toBeNull();
    expect(meter.turns).toBe(2);
    expect(meter.observe(usage("m3", 10, 1))).toBe("stopped: 3 turns passed the run limit of 2");
  });

  it("trusts the CLI's own turn count when it is higher", () => {
    const meter = new RunMeter({ ...none, maxTurns: 5 });
    expect(meter.observe(usage("m1", 10, 1))).toBeNull();
    expect(meter.observe({ type: "result", ok: false, turns: 6 })).toBe("stopped: 6 turns passed the run limit of 5");
  });

  it("is not stopped by a limit it is exactly at", () => {
    const meter = new RunMeter({ ...none, maxToolCalls: 1 });
    expect(meter.observe(tool("a"))).toBeNull();
  });
});

describe("RunMeter's measures", () => {
  const cached = (messageId: string, model?: string): AgentEvent =>
    ({ type: "usage", messageId, model, inputTokens: 100, outputTokens: 10, cacheReadTokens: 1000, cacheWriteTokens: 30 });

  it("is measured once the agent reports usage or a total with figures, not before", () => {
    expect(new RunMeter(none).measured).toBe(false);
    const used = new RunMeter(none);
    used.observe(usage("m1", 1, 1));
    expect(used.measured).toBe(true);
    used.observe({ type: "result", ok: true });
    expect(used.measured).toBe(true);
    const seen = (result: AgentEvent) => {
      const meter = new RunMeter(none);
      meter.observe(result);
      return meter.measured;
    };
    expect(seen({ type: "result", ok: true })).toBe(false);
    expect(seen({ type: "result", ok: true, inputTokens: 5 })).toBe(true);
    expect(seen({ type: "result", ok: true, outputTokens: 5 })).toBe(true);
    expect(seen({ type: "result", ok: true, costUsd: 0.5 })).toBe(true);
  });

  it("counts cached tokens as input, the cache writes on the call's ledger line and the reads as cached", () => {
    const meter = new RunMeter(none, "claude-sonnet-4-5");
    meter.observe(cached("m1"));
    expect(meter.totals).toMatchObject({ inputTokens: 1130, cacheReadTokens: 1000, cacheWriteTokens: 30, outputTokens: 10 });
    expect(meter.linesChangedBy(cached("m1"))).toEqual([
      { key: "m1", model: "claude-sonnet-4-5", inputTokens: 130, cachedTokens: 1000, cacheWriteTokens: 30, outputTokens: 10, costUsd: expect.any(Number) },
    ]);
  });

  it("puts on the result line only the cached and uncached input the CLI's total adds to the calls", () => {
    const meter = new RunMeter(none, "claude-sonnet-4-5");
    meter.observe(cached("m1"));
    const result: AgentEvent = { type: "result", ok: true, inputTokens: 2000, cacheReadTokens: 1500, outputTokens: 50, costUsd: 1 };
    meter.observe(result);
    // The CLI's total of cache reads is higher than its calls': it counts; the writes are the calls' own.
    expect(meter.totals).toMatchObject({ inputTokens: 2000, cacheReadTokens: 1500, cacheWriteTokens: 30 });
    expect(meter.linesChangedBy(result)).toEqual([
      { key: "result", model: "claude-sonnet-4-5", cachedTokens: 500, cacheWriteTokens: 0, inputTokens: 370, outputTokens: 40, costUsd: expect.any(Number) },
    ]);
  });

  it("names a call without its own model by the run's model, and by none when the run has none", () => {
    const withModel = new RunMeter(none, "claude-sonnet-4-5");
    withModel.observe(cached("m1", undefined));
    expect(withModel.linesChangedBy(cached("m1", undefined))[0].model).toBe("claude-sonnet-4-5");
    const without = new RunMeter(none);
    without.observe(cached("m1", undefined));
    expect(without.linesChangedBy(cached("m1", undefined))[0].model).toBeNull();
  });

  it("updates the result line when a call arrives after the CLI's total, and only on usage and result events", () => {
    const meter = new RunMeter(none, "claude-sonnet-4-5");
    const result: AgentEvent = { type: "result", ok: true, inputTokens: 3000, outputTokens: 500, costUsd: 0.05 };
    meter.observe(result);
    expect(meter.linesChangedBy(result)).toEqual([{ key: "result", model: "claude-sonnet-4-5", cachedTokens: 0, cacheWriteTokens: 0, inputTokens: 3000, outputTokens: 500, costUsd: 0.05 }]);
    expect(meter.linesChangedBy(tool("t1"))).toEqual([]);
    const late = usage("m1", 1000, 100);
    meter.observe(late);
    expect(meter.linesChangedBy(late)).toEqual([
      { key: "m1", model: "claude-sonnet-4-5", inputTokens: 1000, cachedTokens: 0, cacheWriteTokens: 0, outputTokens: 100, costUsd: 0.0045 },
      { key: "result", model: "claude-sonnet-4-5", cachedTokens: 0, cacheWriteTokens: 0, inputTokens: 2000, outputTokens: 400, costUsd: expect.closeTo(0.0455, 12) },
    ]);
  });

  it("leaves events that carry no usage alone, even past a ceiling", () => {
    const meter = new RunMeter({ ...none, maxTokens: 10 }, "claude-sonnet-4-5");
    expect(meter.observe(usage("m1", 100, 0))).toBe("stopped: tokens 100 passed the run limit of 10");
    expect(meter.observe({ type: "text", text: "thinking" })).toBeNull();
    expect(meter.observe({ type: "log", text: "a line" })).toBeNull();
    // A text event is no total from the CLI: no result line appears.
    expect(meter.linesChangedBy(usage("m1", 100, 0))).toEqual([{ key: "m1", model: "claude-sonnet-4-5", inputTokens: 100, cachedTokens: 0, cacheWriteTokens: 0, outputTokens: 0, costUsd: 0.0003 }]);
  });

  it("counts tool calls without an id each time", () => {
    const meter = new RunMeter({ ...none, maxToolCalls: 1 });
    expect(meter.observe(tool(""))).toBeNull();
    expect(meter.observe(tool(""))).toBe("stopped: tool calls 2 passed the run limit of 1");
  });

  it("names the run limit for a passed ceiling other than cost, whatever the cost limit is called", () => {
    const meter = new RunMeter({ ...none, maxTokens: 10 }, "claude-sonnet-4-5", "the budget left for this run");
    expect(meter.observe(usage("m1", 11, 0))).toBe("stopped: tokens 11 passed the run limit of 10");
  });
});

describe("ceilings", () => {
  it("takes the project's value over the profile's, and refuses runs at 0", () => {
    const c = runCeilings({ maxTokens: 100, maxCostUsd: 2, maxToolCalls: null, maxTurns: 30 }, { maxTokens: null, maxCostUsd: 0, maxToolCalls: 7, maxTurns: 12 });
    expect(c).toEqual({ maxTokens: 100, maxCostUsd: 0, maxToolCalls: 7, maxTurns: 12 });
    expect(refusal(c, "claude")).toBe("refused: the run limit for cost is 0, which means runs are refused");
    expect(refusal({ ...c, maxCostUsd: null }, "claude")).toBeNull();
  });

  it("refuses a ceiling the adapter cannot measure, rather than ignoring it", () => {
    const c = { maxTokens: null, maxCostUsd: 3, maxToolCalls: null, maxTurns: null };
    expect(refusal(c, "shell")).toBe("refused: the run limit for cost cannot be enforced: the shell adapter reports no cost Ringmaster can read (leave it empty, or 0 to refuse runs)");
    expect(refusal(c, "gemini")).toBeNull();
    expect(refusal({ ...none, maxTurns: 10 }, "codex")).toBe("refused: the run limit for turns cannot be enforced: the codex adapter reports no turns Ringmaster can read (leave it empty, or 0 to refuse runs)");
  });
});

describe("RunMeter over the other CLIs' transcripts", () => {
  // The first reason to stop, as RunGuard acts on it.
  const replay = async (name: string, parse: (line: string) => AgentEvent[], meter: RunMeter) =>
    (await readTranscript(name)).flatMap(parse).map((e) => meter.observe(e)).find(Boolean) ?? null;

  it("codex: tool calls as they start, tokens when the turn completes", async () => {
    expect(await replay("codex.jsonl", parseCodexLine, new RunMeter({ ...none, maxToolCalls: 1 }))).toBe("stopped: tool calls 2 passed the run limit of 1");
    expect(await replay("codex.jsonl", parseCodexLine, new RunMeter({ ...none, maxTokens: 20_000 }))).toBe("stopped: tokens 24,885 passed the run limit of 20,000");
  });

  it("gemini: tokens and a priced cost at the end, the cached input at the cache-read price", async () => {
    const meter = new RunMeter({ ...none, maxCostUsd: 0.01 }, "gemini-2.5-pro");
    // (8642 − 4096) × $1.25 + 4096 × $0.125 + (311 + 157 thinking) × $10 per million
    expect(await replay("gemini.jsonl", parseGeminiLine, meter)).toBe("stopped: cost $0.0109 passed the run limit of $0.0100");
    expect(meter.totals.costUsd).toBeCloseTo(0.0108745, 10);
  });

  it("a result's cached input goes to the ledger as cached, apart from the rest", () => {
    const meter = new RunMeter(none, "gpt-5");
    const result: AgentEvent = { type: "result", ok: true, inputTokens: 24_763, cacheReadTokens: 24_448, outputTokens: 122 };
    meter.observe(result);
    // 315 × $1.25 + 24448 × $0.125 + 122 × $10 per million
    expect(meter.linesChangedBy(result)).toEqual([{ key: "result", model: "gpt-5", inputTokens: 315, cachedTokens: 24_448, cacheWriteTokens: 0, outputTokens: 122, costUsd: expect.closeTo(0.00466975, 12) }]);
    expect(meter.totals).toMatchObject({ inputTokens: 24_763, outputTokens: 122 });
  });
});
